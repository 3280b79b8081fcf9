import type { Page } from '@playwright/test';
import { expect, sandboxFixtures, test, weekView, type WeekView } from './utils';

// Issue 48: every slot dialog said "Length 0 h" for 3- and 4-hour slots. The dialog is read for
// every kind of slot the demo's rooms have, the length said as the slot's instants give it.

type Slot = WeekView['slots'][number] & { startMs: number; endMs: number; startLabel: string; endLabel: string; endsNextDay: boolean };
interface Target { url: string; slot: Slot }

const KINDS = {
  '90 min': { minutes: 90, en: '1 h 30 min', sv: '1 tim 30 min' },
  '3 h': { minutes: 180, en: '3 h', sv: '3 tim' },
  '4 h': { minutes: 240, en: '4 h', sv: '4 tim' },
} as const;
type Kind = keyof typeof KINDS | 'past midnight';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const minutesOf = (slot: Slot) => Math.round((slot.endMs - slot.startMs) / 60_000);

/** One slot of each kind in the manager's rooms, next week (all of it still to come). */
async function findTargets(page: Page): Promise<Map<Kind, Target>> {
  const fixtures = await sandboxFixtures();
  const found = new Map<Kind, Target>();
  for (const deviceId of fixtures.approvals[0]?.deviceIds ?? []) {
    const rooms = fixtures.residents.filter((r) => r.deviceId === deviceId).flatMap((r) => r.resourceIds);
    for (const resourceId of new Set(rooms)) {
      const now = await weekView(page.request, deviceId, resourceId);
      const next = await weekView(page.request, deviceId, resourceId, now.nav.next);
      for (const slot of next.slots as Slot[]) {
        const url = `/systems/${deviceId}/resources/${resourceId}?week=${next.week.key}`;
        const kind = (Object.keys(KINDS) as (keyof typeof KINDS)[]).find((k) => KINDS[k].minutes === minutesOf(slot));
        if (kind && !slot.endsNextDay && !found.has(kind)) found.set(kind, { url, slot });
        if (slot.endsNextDay && !found.has('past midnight')) found.set('past midnight', { url, slot });
      }
    }
  }
  return found;
}

/** Opens the slot's dialog in the grid and gives the text beside "Length" (or "Längd"). */
async function dialogLength(page: Page, target: Target, term: string, nextDay: string): Promise<string> {
  await page.goto(target.url);
  const range = `${target.slot.startLabel}–${target.slot.endLabel}${target.slot.endsNextDay ? ` ${nextDay}` : ''}`;
  await page.getByRole('region').getByRole('button', { name: new RegExp(`, ${escapeRegExp(range)}, `) }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const length = dialog.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');
  return (await length.innerText()).trim();
}

const expected = (slot: Slot, locale: 'en' | 'sv') => {
  const minutes = minutesOf(slot);
  const kind = (Object.keys(KINDS) as (keyof typeof KINDS)[]).find((k) => KINDS[k].minutes === minutes);
  if (kind) return KINDS[kind][locale];
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const h = locale === 'en' ? 'h' : 'tim';
  return hours === 0 ? `${rest} min` : rest === 0 ? `${hours} ${h}` : `${hours} ${h} ${rest} min`;
};

test('the slot dialog says the length of every kind of slot: 90 min, 3 h, 4 h and past midnight', async ({ page, signedInAs }) => {
  test.setTimeout(180_000);
  await signedInAs('manager');
  const targets = await findTargets(page);
  expect([...targets.keys()].sort()).toEqual(['3 h', '4 h', '90 min', 'past midnight']);
  for (const [kind, target] of targets) {
    expect(await dialogLength(page, target, 'Length', 'next day'), kind).toBe(expected(target.slot, 'en'));
  }
  // The demo's late slot runs 22:00–02:00: four hours, not "0 h" and not a negative span.
  expect(expected(targets.get('past midnight')!.slot, 'en')).not.toMatch(/^0 /);
});

test.describe('in Swedish', () => {
  test.use({ locale: 'sv-SE', extraHTTPHeaders: { 'Accept-Language': 'sv-SE,sv;q=0.9' } });

  test('the slot dialog says "Längd 3 tim", "1 tim 30 min" and the late slot’s hours', async ({ page, signedInAs }) => {
    test.setTimeout(180_000);
    await signedInAs('manager');
    const targets = await findTargets(page);
    for (const kind of ['3 h', '90 min', 'past midnight'] as const) {
      const target = targets.get(kind)!;
      expect(await dialogLength(page, target, 'Längd', 'nästa dag'), kind).toBe(expected(target.slot, 'sv'));
    }
  });
});
