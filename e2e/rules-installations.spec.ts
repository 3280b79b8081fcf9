import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, expect, firstSystem, sandboxFixtures, test } from './utils';

// A board member on a phone, in Swedish: the three installations of issue 35 entered on one system.
// The header too: Playwright's locale reaches navigations but the server actions' fetches go out
// with en-US, which a Swedish browser would not send.
test.use({ locale: 'sv-SE', extraHTTPHeaders: { 'Accept-Language': 'sv-SE,sv;q=0.9' }, viewport: { width: 375, height: 812 } });

test('an admin enters the three published installations in Swedish at 375 px and reads them back as residents know them (issue 35)', async ({ page, context, signedInAs }) => {
  test.setTimeout(240_000);
  const fixtures = await sandboxFixtures();
  const deviceId = fixtures.approvals[0]?.deviceIds[0] ?? '';
  const name = fixtures.systems.find((s) => s.deviceId === deviceId)?.name ?? '';
  await signedInAs('admin');
  // The account's saved language wins over the browser's.
  const saveLocale = (locale: 'sv' | 'en') =>
    context.request.put('/api/me/locale', { data: { locale }, headers: { origin: BASE_URL, 'idempotency-key': `rules-locale-${locale}-${Date.now()}` } });
  expect((await saveLocale('sv')).ok()).toBe(true);
  await expect.poll(async () => (await context.request.get(`/api/systems/${deviceId}`)).status(), { timeout: 60_000 }).toBe(200);
  // The rooms come from the portal's copy of the system, complete once its first load has ended.
  await firstSystem(page);
  await page.goto(`/admin/systems/${deviceId}`);
  const card = page.getByRole('list', { name: 'Anslutna system' }).getByRole('listitem').filter({ hasText: deviceId });
  await card.getByText('Bokningsregler', { exact: true }).click();
  const readBack = card.getByRole('list', { name: `Så läser de boende dem (${name})` });
  await expect(readBack.getByRole('listitem').first()).toContainText('åt gången');

  const roomNames = async () => {
    const boxes = card.getByRole('group', { name: 'Ny regelgrupp' }).getByRole('group', { name: 'Rum' }).getByRole('checkbox');
    const names: string[] = [];
    for (let i = 0; i < (await boxes.count()); i++) names.push((await boxes.nth(i).locator('..').innerText()).trim());
    return names;
  };
  const rooms = await roomNames();
  expect(rooms.length, 'the demo system has four rooms or more').toBeGreaterThanOrEqual(4);

  /** Fills the new group's form with `limits` (Swedish labels) for `picked` rooms and adds it. */
  const addGroup = async (picked: string[], limits: Record<string, string>) => {
    const form = card.getByRole('group', { name: 'Ny regelgrupp' });
    for (const room of picked) {
      const box = form.getByRole('group', { name: 'Rum' }).getByRole('checkbox', { name: room, exact: true });
      await box.check();
      await expect(box).toBeChecked();
    }
    for (const [label, value] of Object.entries(limits)) await form.getByLabel(label, { exact: true }).fill(value);
    await card.getByRole('button', { name: `Lägg till gruppen (${name})` }).click();
    await expect(card.getByRole('status').filter({ hasText: 'Bokningsreglerna' })).toHaveText(`Bokningsreglerna för ${name} har sparats.`);
    // The new group's form comes back empty, its rooms taken: wait for that before filling it again.
    const fresh = card.getByRole('group', { name: 'Ny regelgrupp' }).getByRole('group', { name: 'Rum' });
    for (const room of picked) await expect(fresh.getByRole('checkbox', { name: room, exact: true })).toBeDisabled();
  };
  const [shared1, shared2, vaka, quick] = rooms as [string, string, string, string];
  try {
    // "Tvättstuga 1, 4 och 5 tillsammans: högst 4 gånger på 7 dagar; högst 2 framtida; 30 dagar i förväg"
    await addGroup([shared1, shared2], { 'Bokningar åt gången': '2', 'Bokningar per period': '4', 'Period i dagar': '7', 'Dagar i förväg (0 = bara i dag)': '30' });
    // The quick laundry room: today or tomorrow, at most three slots in a row, released after two hours.
    await addGroup([quick], { 'Dagar i förväg (0 = bara i dag)': '1', 'Pass i rad': '3', 'Släpps om inte påbörjad inom (minuter)': '120' });
    // The VAKA installation: 2 times in 7 days, 1 at a time, 30 days ahead, activated within 30 minutes.
    await addGroup([vaka], { 'Bokningar åt gången': '1', 'Bokningar per period': '2', 'Period i dagar': '7', 'Dagar i förväg (0 = bara i dag)': '30', 'Släpps om inte påbörjad inom (minuter)': '30' });

    const lines = readBack.getByRole('listitem');
    await expect(lines.filter({ hasText: 'tillsammans' })).toHaveText(`${shared1} och ${shared2} tillsammans: högst 4 gånger på 7 dagar, 2 åt gången, upp till 30 dagar i förväg`);
    await expect(lines.filter({ hasText: quick })).toHaveText(new RegExp(`^${quick}: bara i dag eller i morgon, högst 3 pass i rad, .*120 minuter`));
    await expect(lines.filter({ hasText: vaka })).toHaveText(new RegExp(`^${vaka}: högst 2 gånger på 7 dagar, 1 åt gången, upp till 30 dagar i förväg, .*30 minuter`));

    // Nothing scrolls sideways on the phone, and the open editor is accessible.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page, 'the booking rules editor in Swedish at 375 px');
  } finally {
    // Later specs expect the demo's default rules: remove the groups again.
    for (let left = await card.getByRole('button', { name: new RegExp(`^Ta bort grupp \\d+ \\(${name}\\)$`) }).count(); left > 0; left--) {
      await card.getByRole('button', { name: `Ta bort grupp 1 (${name})` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Ta bort grupp 1' }).click();
      await expect(card.getByRole('button', { name: new RegExp(`^Ta bort grupp \\d+ \\(${name}\\)$`) })).toHaveCount(left - 1);
    }
    await saveLocale('en');
  }
});
