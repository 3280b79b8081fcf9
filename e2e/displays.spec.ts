import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expectNoSeriousA11yViolations } from './a11y';
import { BASE_URL, bookFirstSlotWithin36h, DEMO, expect, firstSystem, sandboxControl, sandboxFixtures, signInWithApi, test, weekView, type WeekSlot } from './utils';

test('a manager creates a display in two clicks; it shows the rooms without a session, a booking appears without touching it, it survives going offline, and switching it off blanks it', async ({ page, browser, signedInAs }) => {
  test.setTimeout(180_000);
  await signedInAs('manager');
  const { system, resources } = await firstSystem(page);

  // Two clicks: the link on the system's page, then "Create display" on the prefilled form.
  await page.goto(`/systems/${system.deviceId}`);
  await page.getByRole('link', { name: 'Laundry-room displays' }).click();
  await page.getByRole('checkbox', { name: 'Show apartment numbers on booked times' }).check();
  await page.getByRole('button', { name: 'Create display' }).click();
  const field = page.getByRole('textbox', { name: `Address of ${system.name}` });
  await expect(field).toHaveValue(/\/display\/[A-Za-z0-9_-]{43}$/);
  const url = await field.inputValue();
  await expect(page.getByRole('img', { name: `QR code of the address of ${system.name}` })).toBeVisible();
  const results = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);

  // The screen by the door: its own browser, no session, Swedish by default, at phone width.
  const screenContext = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'sv-SE' });
  const screen = await screenContext.newPage();
  await screen.clock.install();
  await screen.goto(url);
  await expect(screen.getByRole('heading', { level: 1, name: system.name })).toBeVisible();
  for (const room of resources) await expect(screen.getByRole('heading', { level: 2, name: room.name })).toBeVisible();
  await expect(screen.getByText(/Ledigt nu|Upptaget till|Service till|Stängt till/).first()).toBeVisible();
  await expect(screen.getByRole('heading', { name: /^I dag/ }).first()).toBeVisible();
  const screenAxe = await new AxeBuilder({ page: screen }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(screenAxe.violations.map((v) => v.id)).toEqual([]);

  // A booking made in the portal for today or tomorrow shows on the screen at its next update.
  const booked = await bookFirstSlotWithin36h(page.request, system.deviceId, resources, 'e2e-display');
  expect(booked, 'a bookable slot today or tomorrow with a resident who may book it').not.toBeNull();
  // The system's own zone (the demo's is Europe/Stockholm), as the screen shows times in it.
  const timeZone = (system as { timeZone?: string }).timeZone ?? 'Europe/Stockholm';
  const time = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
  const label = `${time(booked!.slot.startMs)}–${time(booked!.slot.endMs)}`;
  const number = booked!.apartment.replace(/^\s*(lgh|apt|apartment|lägenhet)\.?\s*/i, '');
  await screen.clock.runFor(16_000);
  await expect(screen.getByRole('listitem').filter({ hasText: label }).filter({ hasText: `Bokad · lgh ${number}` }).first()).toBeVisible();

  // Cut off: the last times stay, with "offline since"; back: "updated … ago" again.
  await screen.route('**/screen', (route) => route.abort());
  // Its stream is open; the rooms are still asked for every 15 s (lib/displays/serve.ts: DISPLAY_UPDATE_S).
  // In steps: a read still under way when the clock jumps sets its next one only once it ends.
  const status = screen.getByRole('status');
  for (let i = 0; i < 6 && !(await status.textContent())?.includes('Ingen kontakt sedan'); i++) {
    await screen.clock.runFor(10_000);
    await screen.waitForTimeout(300);
  }
  await expect(status).toContainText('Ingen kontakt sedan');
  await expect(screen.getByRole('heading', { level: 2, name: resources[0]!.name })).toBeVisible();
  // Back: the next read (30 s, 1 min, then 2 min apart while offline) finds the portal again.
  await screen.unroute('**/screen');
  for (let i = 0; i < 15 && !(await status.textContent())?.includes('Uppdaterad för'); i++) {
    await screen.clock.runFor(10_000);
    await screen.waitForTimeout(300);
  }
  await expect(status).toContainText('Uppdaterad för');

  // Switched off: the screen says so at its next update.
  await page.getByRole('button', { name: `Switch off ${system.name}` }).first().click();
  await page.getByRole('dialog', { name: `Switch off ${system.name}?` }).getByRole('button', { name: 'Switch off' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${system.name} was switched off.` })).toBeVisible();
  await screen.clock.runFor(16_000);
  await expect(screen.getByText('Den här skärmen har stängts av.')).toBeVisible();
  await screenContext.close();
});

/** yyyy-MM-dd of an instant in a zone. */
const localDate = (ms: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
/** The calendar day `delta` days after `date` (yyyy-MM-dd): a 23- or 25-hour day is still one. */
const shiftDate = (date: string, delta: number) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + delta)).toISOString().slice(0, 10);
};
const hhmm = (ms: number, timeZone: string) => new Intl.DateTimeFormat('sv-SE', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);

test('a manager renames a display in its row, and the page and the screen read well at 375 px in English and Swedish', async ({ page, browser, signedInAs }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 375, height: 800 });
  await signedInAs('manager');
  const { system } = await firstSystem(page);
  const first = `Entré ${randomUUID().slice(0, 6)}`;
  const renamed = `Tvättstugan ${randomUUID().slice(0, 6)}`;

  await page.goto(`/systems/${system.deviceId}/displays`);
  await page.getByRole('textbox', { name: 'Name (shown at the top of the screen)' }).fill(first);
  await page.getByRole('combobox', { name: 'Language on the screen' }).selectOption('en');
  await page.getByRole('button', { name: 'Create display' }).click();
  const url = await page.getByRole('textbox', { name: `Address of ${first}` }).inputValue();
  expect(url).toMatch(/\/display\/[A-Za-z0-9_-]{43}$/);
  // The screen is open, in English, at 375 px, before the rename.
  const screenContext = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const screen = await screenContext.newPage();
  await screen.goto(url);
  await expect(screen.getByRole('heading', { level: 1, name: first })).toBeVisible();

  // Rename in the row: the name field replaces the row; Escape (or Cancel) leaves it as it was.
  await page.getByRole('button', { name: `Rename ${first}` }).click();
  const field = page.getByRole('textbox', { name: `New name for ${first}` });
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(first);
  await field.press('Escape');
  await expect(field).toHaveCount(0);
  await page.getByRole('button', { name: `Rename ${first}` }).click();
  await field.fill(renamed);
  await expectNoSeriousA11yViolations(page, 'the displays page at 375 px with a rename open');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${first} was renamed ${renamed}.` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Rename ${renamed}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Rename ${first}` })).toHaveCount(0);
  // It stays renamed (the server has it), and the page has no sideways scroll at phone width.
  await page.reload();
  await expect(page.getByRole('button', { name: `Switch off ${renamed}` })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page, 'the displays page at 375 px');

  // The open screen has the new name, without a hand on it: its stream ended "reload" (lib/displays/stream.ts).
  await expect(screen.getByRole('heading', { level: 1, name: renamed })).toBeVisible({ timeout: 10_000 });
  await expect(screen.getByRole('heading', { name: /^Today/ }).first()).toBeVisible();
  expect(await screen.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(screen, 'an English display at 375 px');
  await screenContext.close();

  // The manager's page in Swedish, for a browser that asks for it.
  const swedish = await browser.newContext({ baseURL: BASE_URL, locale: 'sv-SE', viewport: { width: 375, height: 800 }, extraHTTPHeaders: { 'Accept-Language': 'sv-SE,sv;q=0.9' } });
  try {
    expect(await signInWithApi(swedish.request, DEMO.manager.email, DEMO.manager.password)).toBeNull();
    const sv = await swedish.newPage();
    await sv.goto(`/systems/${system.deviceId}/displays`);
    await expect(sv.getByRole('heading', { level: 2, name: 'Aktiva skärmar' })).toBeVisible();
    await expect(sv.getByRole('button', { name: `Byt namn på ${renamed}` })).toBeVisible();
    expect(await sv.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(sv, 'the displays page in Swedish at 375 px');
    await sv.getByRole('button', { name: `Stäng av ${renamed}` }).click();
    await sv.getByRole('dialog', { name: `Stänga av ${renamed}?` }).getByRole('button', { name: 'Stäng av' }).click();
    await expect(sv.getByRole('button', { name: `Stäng av ${renamed}` })).toHaveCount(0);
  } finally {
    await swedish.close();
  }
});

test('a booking made at the sandbox itself (as at the door panel) appears on an open display within the freshness bound, untouched', async ({ page, browser, signedInAs }) => {
  await signedInAs('manager');
  const { system, resources } = await firstSystem(page);
  const overview = (await (await page.request.get(`/api/systems/${system.deviceId}/overview`)).json()) as { system: { timeZone: string }; freshness: { outsideWithinS?: number } };
  const timeZone = overview.system.timeZone;
  // The promise the system page makes ("show within about …"); the screen adds two reads of 15 s.
  const boundS = overview.freshness.outsideWithinS ?? 120;
  test.setTimeout((boundS + 90) * 1000);

  // A free slot the strip shows: today or tomorrow in the system's zone, the latest such one of
  // any room (other tests take the earliest), whatever the time of day is now.
  const now = Date.now();
  const today = localDate(now, timeZone);
  const strip = new Set([today, shiftDate(today, 1)]);
  const fixtures = await sandboxFixtures();
  let chosen: { room: { id: string; name: string }; slot: WeekSlot & { startMs: number; endMs: number }; userId: string } | null = null;
  for (const room of resources) {
    const resident = fixtures.residents.find((r) => r.deviceId === system.deviceId && r.resourceIds.includes(room.id));
    if (!resident) continue;
    const current = await weekView(page.request, system.deviceId, room.id);
    const next = await weekView(page.request, system.deviceId, room.id, current.nav.next);
    const slots = ([...current.slots, ...next.slots] as (WeekSlot & { startMs: number; endMs: number })[]).filter(
      (s) => s.bookable && s.state === 'free' && s.startMs > now + 10 * 60_000 && strip.has(localDate(s.startMs, timeZone)),
    );
    const slot = slots.at(-1);
    if (slot && (!chosen || slot.startMs > chosen.slot.startMs)) chosen = { room, slot, userId: resident.userId };
  }
  expect(chosen, 'a free slot later today or tomorrow in a room with a resident').not.toBeNull();
  const { room, slot, userId } = chosen!;

  // The display, opened by a device with no session, in Swedish at phone width, on its real clock.
  const created = await page.request.post('/api/displays', {
    data: { deviceId: system.deviceId, name: `Panel ${randomUUID().slice(0, 6)}`, resourceIds: [room.id] },
    headers: { 'idempotency-key': `e2e-display-${randomUUID()}`, origin: BASE_URL },
  });
  expect(created.status()).toBe(201);
  const { url } = (await created.json()) as { url: string };
  const screenContext = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'sv-SE' });
  try {
    const screen = await screenContext.newPage();
    await screen.goto(url);
    const article = screen.getByRole('article').filter({ has: screen.getByRole('heading', { level: 2, name: room.name }) });
    const label = `${hhmm(slot.startMs, timeZone)}–${hhmm(slot.endMs, timeZone)}`;
    // Today's strip or tomorrow's: the same times may be in both.
    const day = article.locator('section').filter({ has: screen.getByRole('heading', { level: 3, name: localDate(slot.startMs, timeZone) === today ? /^I dag/ : /^I morgon/ }) });
    const item = day.getByRole('listitem').filter({ hasText: label });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText('Ledig');
    await expectNoSeriousA11yViolations(screen, 'a Swedish display at 375 px');

    // At the door panel: straight into the service's data, no request, no webhook.
    const made = await sandboxControl('POST', '/sandbox/_sandbox/panel-reservations', { resourceId: room.id, startTime: slot.startTime, endTime: slot.endTime, userId });
    expect(made.status, made.text).toBe(201);
    const madeAt = Date.now();
    // The display's own bound: the portal's promise plus two reads of the screen (15 s each: one
    // starts the re-read once the freshness window has passed, the next shows it), and 10 s of slack.
    await expect(item).toContainText('Bokad', { timeout: (boundS + 40) * 1000 });
    expect((Date.now() - madeAt) / 1000).toBeLessThanOrEqual(boundS + 2 * 15 + 10);
  } finally {
    await screenContext.close();
  }
});

/** The rooms of a page (its HTML, or the /screen answer's), cycled with new names until there are `count`. */
function roomsUpTo(html: string, count: number): string {
  const rooms = html.match(/<article class="room">[\s\S]*?<\/article>/g) ?? [];
  if (rooms.length === 0) return html;
  const more = Array.from({ length: count }, (_, i) => (i < rooms.length ? rooms[i]! : rooms[i % rooms.length]!.replace(/<h2>([\s\S]*?)<\/h2>/, `<h2>$1 · ${Math.floor(i / rooms.length) + 1}</h2>`)));
  return html.replace(rooms.join(''), more.join(''));
}

/**
 * Every room of the screen seen, page by page (each page turn is DISPLAY_PAGE_S = 10 s of the
 * page's clock): each room card wholly inside the window and not cut off inside, the page with no
 * scrolling. Returns the names seen and the page count the indicator gave.
 */
async function everyRoomOnItsPage(screen: Page, size: { width: number; height: number }): Promise<{ seen: Set<string>; pages: number }> {
  const seen = new Set<string>();
  let pages = 1;
  for (let turn = 0; turn < 8; turn++) {
    const page = screen.locator('#page');
    const indicator = (await page.isVisible()) ? ((await page.textContent()) ?? '') : '';
    const match = /Sida (\d+) av (\d+)/.exec(indicator);
    if (match) pages = Number(match[2]);
    const cards = await screen.getByRole('article').evaluateAll((articles) =>
      articles
        .filter((a) => !(a as HTMLElement).hidden)
        .map((a) => {
          const box = a.getBoundingClientRect();
          return { name: a.querySelector('h2')!.textContent, right: box.right, bottom: box.bottom, cut: a.scrollHeight - a.clientHeight, fontPx: parseFloat(getComputedStyle(a).fontSize) };
        }),
    );
    for (const card of cards) {
      expect(card.right, `${card.name} inside the width at ${size.width}×${size.height}`).toBeLessThanOrEqual(size.width);
      expect(card.bottom, `${card.name} inside the height at ${size.width}×${size.height}`).toBeLessThanOrEqual(size.height);
      expect(card.cut, `${card.name} not cut off inside at ${size.width}×${size.height}`).toBeLessThanOrEqual(1);
      expect(card.fontPx).toBeGreaterThanOrEqual(13);
      seen.add(card.name);
    }
    const scroll = await screen.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight }));
    expect(scroll.w).toBeLessThanOrEqual(size.width);
    expect(scroll.h).toBeLessThanOrEqual(size.height);
    if (!match || Number(match[1]) === pages) break;
    const next = `Sida ${Number(match[1]) + 1} av ${pages}`;
    await screen.clock.runFor(10_000);
    await expect(page).toContainText(next);
  }
  return { seen, pages };
}

test('every room of a display shows on a 1280×800 tablet, upright at 800×1280 and on a 1920×1080 TV; eight rooms turn pages with "page 1 of 2"', async ({ page, browser, signedInAs }, testInfo) => {
  test.setTimeout(240_000);
  await signedInAs('manager');
  const { system, resources } = await firstSystem(page);
  const created = await page.request.post('/api/displays', {
    data: { deviceId: system.deviceId, name: `Tvättstugorna ${randomUUID().slice(0, 6)}`, showApartments: true },
    headers: { 'idempotency-key': `e2e-display-sizes-${randomUUID()}`, origin: BASE_URL },
  });
  expect(created.status()).toBe(201);
  const url = new URL(new URL(((await created.json()) as { url: string }).url).pathname, BASE_URL).toString();
  const names = resources.map((r) => r.name);

  for (const size of [
    { width: 1280, height: 800 },
    { width: 800, height: 1280 },
    { width: 1920, height: 1080 },
  ]) {
    const context = await browser.newContext({ viewport: size, locale: 'sv-SE' });
    try {
      const screen = await context.newPage();
      await screen.clock.install();
      await screen.goto(url);
      await expect(screen.getByRole('heading', { level: 2, name: names[0] })).toBeAttached();
      // The demo's system of this display: all its rooms on one page, at every size.
      const { seen, pages } = await everyRoomOnItsPage(screen, size);
      expect([...seen].sort()).toEqual([...names].sort());
      expect(pages).toBe(1);
      await expect(screen.locator('#page')).toBeHidden();
      await screen.screenshot({ path: testInfo.outputPath(`display-${size.width}x${size.height}.png`) });
      await expectNoSeriousA11yViolations(screen, `a display at ${size.width}×${size.height}`);

      // Eight rooms (the demo's, and copies under other names): on pages that turn by themselves, every one seen.
      await screen.route(url, async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, body: roomsUpTo(await response.text(), 8) });
      });
      await screen.route('**/screen', async (route) => {
        const response = await route.fetch();
        const json = (await response.json()) as { html: string };
        await route.fulfill({ response, json: { ...json, html: roomsUpTo(json.html, 8) } });
      });
      await screen.reload();
      // Counted hidden or not: the rooms of other pages are not in the accessibility tree until their page shows.
      await expect(screen.locator('article.room')).toHaveCount(8);
      const eight = await everyRoomOnItsPage(screen, size);
      expect(eight.seen.size).toBe(8);
      await screen.screenshot({ path: testInfo.outputPath(`display-8-rooms-${size.width}x${size.height}.png`) });
      if (eight.pages > 1) {
        // After the last page, the first again; a read of the rooms (every 15 s) keeps the page turning.
        await screen.clock.runFor(10_000);
        await expect(screen.locator('#page')).toContainText(`Sida 1 av ${eight.pages}`);
        await expectNoSeriousA11yViolations(screen, `a display of eight rooms at ${size.width}×${size.height}`);
      }
    } finally {
      await context.close();
    }
  }
});
