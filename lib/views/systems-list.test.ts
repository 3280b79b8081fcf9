import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createUser, setManagerSystems } from '@/lib/auth/users';
import { visibleTo } from '@/lib/auth/access';
import { connections, systems } from '@/lib/db/schema';
import { isApiError, renderApiError } from '@/lib/errors/api-error';
import { applyReservationChange, claimRefreshWith, completeRefresh, insertPage } from '@/lib/mirror/store';
import { DEFAULT_SYSTEM_LIST_PARAMS, parseSystemListParams, systemListQuery, type SystemListParams } from '@/lib/client/system-list-params';
import { countingDb, describeWithDb } from '@/tests/db';
import type { Database } from '@/lib/db';
import { loadSystemList, systemListParamsOrThrow, warmFreeToday } from './systems-list';

const params = (changes: Partial<SystemListParams> = {}): SystemListParams => ({ ...DEFAULT_SYSTEM_LIST_PARAMS, ...changes });
// A fixed "now" (a Wednesday, 10:05 in UTC, 12:05 in Stockholm): nothing here depends on today.
const NOW = new Date('2026-06-10T10:05:00Z');
// Every day, slots of an hour around the clock (minutes in UTC).
const ALL_DAY = Array.from({ length: 7 }, () => Array.from({ length: 24 }, (_, h) => [h * 60, 60] as [number, number]));

/** Loads a copy of a system: its rooms (with an all-day schedule) and, optionally, what the refresh could not read. */
async function loadCopy(db: Database, deviceId: string, rooms: string[], options: { skipped?: number; incompleteLists?: boolean } = {}) {
  const claim = await claimRefreshWith(db, deviceId, 60);
  if (!claim) throw new Error('lease held');
  const generation = claim.generation + 1;
  const scheduleId = randomUUID();
  await insertPage(db, 'timeSchedules', deviceId, generation, [{ id: scheduleId, deviceId, scheduleType: 'Week', schedule: ALL_DAY }]);
  await insertPage(db, 'resources', deviceId, generation, rooms.map((name) => ({ id: randomUUID(), name, description: '', timeScheduleId: scheduleId })));
  const skipped = options.skipped ? { total: options.skipped, counts: { reservations: options.skipped }, samples: [] } : null;
  const incomplete = options.incompleteLists ? { lists: ['reservations' as const], retryAfterMs: 60_000 } : undefined;
  await completeRefresh(db, deviceId, claim.refreshId, generation, new Date(), 1, skipped, 'unavailable', undefined, incomplete);
  return generation;
}

describe('the list parameters in the address', () => {
  it('reads search, grouping, area, filters, page and size, and writes them back without the defaults', () => {
    const parsed = parseSystemListParams(new URLSearchParams('q=+Storgatan+&group=city&area=Norr&filter=notLoaded,free&filter=free&page=3&size=50'));
    expect(parsed).toEqual({ ok: true, params: { q: 'Storgatan', group: 'city', area: 'Norr', filters: ['free', 'notLoaded'], page: 3, size: 50 } });
    if (!parsed.ok) return;
    expect(systemListQuery(parsed.params)).toBe('?q=Storgatan&group=city&area=Norr&filter=free%2CnotLoaded&page=3&size=50');
    // Any change but the page goes back to page 1; the defaults leave the address.
    expect(systemListQuery(parsed.params, { q: 'Kungsgatan' })).toBe('?q=Kungsgatan&group=city&area=Norr&filter=free%2CnotLoaded&size=50');
    expect(systemListQuery(params())).toBe('');
    expect(parseSystemListParams({})).toEqual({ ok: true, params: DEFAULT_SYSTEM_LIST_PARAMS });
  });

  it.each([
    ['page=0x10', 'The page must be a whole number from 1 to 100000.'],
    ['page=0', 'The page must be a whole number from 1 to 100000.'],
    ['page=2.5', 'The page must be a whole number from 1 to 100000.'],
    ['size=30', 'Systems per page must be one of 25, 50, 100.'],
    ['group=street', 'Grouping must be area, city or none, got “street”.'],
    ['filter=busy', 'Unknown filter “busy”: use free, incomplete or notLoaded.'],
    [`q=${'a'.repeat(101)}`, 'The search may be at most 100 characters.'],
    ['q=a%07b', 'The search may not contain control characters.'],
  ])('%s is a 400 with a sentence', async (query, sentence) => {
    let caught: unknown;
    try {
      systemListParamsOrThrow(new URLSearchParams(query));
    } catch (error) {
      caught = error;
    }
    expect(isApiError(caught) && caught.code).toBe('bad_request');
    if (isApiError(caught)) expect(await renderApiError(caught, 'en')).toBe(sentence);
  });
});

describeWithDb('the systems list', (ctx) => {
  const db = () => ctx().handle.db;
  let adminId = '';
  let managerId = '';
  const ids = { ekhagen: randomUUID(), flogsta: randomUUID(), gottsunda: randomUUID(), luthagen: randomUUID(), percent: randomUUID() };

  beforeAll(async () => {
    const [connection] = await db().insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    const connectionId = connection!.id;
    await db()
      .insert(systems)
      .values([
        { deviceId: ids.ekhagen, connectionId, name: 'Ekhagen', street: 'Storgatan 1', city: 'Uppsala', area: 'Norr' },
        { deviceId: ids.flogsta, connectionId, name: 'Flogsta', street: 'Kungsgatan 9', city: 'Stockholm', area: 'Syd' },
        { deviceId: ids.gottsunda, connectionId, name: 'Gottsunda', street: null, city: 'Uppsala', area: 'Norr' },
        { deviceId: ids.luthagen, connectionId, name: 'Luthagen', street: 'Sysslomansgatan 3', city: null, area: null },
        { deviceId: ids.percent, connectionId, name: '100% Hus', street: null, city: null, area: null },
      ]);
    await loadCopy(db(), ids.ekhagen, ['Tvättstuga 1', 'Torkrum']);
    await loadCopy(db(), ids.flogsta, ['Bastun'], { skipped: 2 });
    await loadCopy(db(), ids.gottsunda, ['Tvättstuga Ost'], { incompleteLists: true });
    // Luthagen and "100% Hus" are never loaded.
    adminId = (await createUser(db(), { email: `admin-${randomUUID()}@example.com`, name: 'Ada', role: 'admin' })).id;
    managerId = (await createUser(db(), { email: `manager-${randomUUID()}@example.com`, name: 'Max', role: 'manager' })).id;
    await setManagerSystems(db(), managerId, [ids.ekhagen, ids.luthagen]);
  });

  const names = async (changes: Partial<SystemListParams>, who = adminId) => (await loadSystemList({ db: db(), now: () => NOW }, visibleTo(who), params(changes))).rows.map((r) => r.name);

  it('finds a system by its name, street, city, area or a room’s name, case and order of words aside', async () => {
    expect(await names({ q: 'flog' })).toEqual(['Flogsta']);
    expect(await names({ q: 'storgatan' })).toEqual(['Ekhagen']);
    expect(await names({ q: 'UPPSALA' })).toEqual(['Ekhagen', 'Gottsunda']);
    expect(await names({ q: 'syd' })).toEqual(['Flogsta']);
    expect(await names({ q: 'bastun' })).toEqual(['Flogsta']);
    expect(await names({ q: 'tvättstuga' })).toEqual(['Ekhagen', 'Gottsunda']);
    // Every word must match somewhere: a room's name and a city together.
    expect(await names({ q: 'ost uppsala' })).toEqual(['Gottsunda']);
    expect(await names({ q: 'uppsala stockholm' })).toEqual([]);
    // % and _ typed are letters, not patterns.
    expect(await names({ q: '100%' })).toEqual(['100% Hus']);
    expect(await names({ q: '%' })).toEqual(['100% Hus']);
    expect(await names({ q: '_' })).toEqual([]);
  });

  it('filters by area, by copies not loaded and by incomplete copies, and shows only what the viewer may see', async () => {
    expect(await names({ area: 'Norr' })).toEqual(['Ekhagen', 'Gottsunda']);
    expect(await names({ filters: ['notLoaded'] })).toEqual(['100% Hus', 'Luthagen']);
    // Incomplete: a list the service never ended, or items it sent unreadable.
    expect(await names({ filters: ['incomplete'] })).toEqual(['Flogsta', 'Gottsunda']);
    expect(await names({ filters: ['incomplete'], area: 'Norr' })).toEqual(['Gottsunda']);
    expect(await names({}, managerId)).toEqual(['Ekhagen', 'Luthagen']);
    expect(await names({ q: 'flogsta' }, managerId)).toEqual([]);
    const list = await loadSystemList({ db: db(), now: () => NOW }, visibleTo(managerId), params());
    expect(list.areas).toEqual(['Norr']);
    const row = list.rows.find((r) => r.name === 'Ekhagen');
    expect(row).toMatchObject({ street: 'Storgatan 1', city: 'Uppsala', area: 'Norr', rooms: ['Torkrum', 'Tvättstuga 1'], incomplete: false });
    expect(row?.refreshedAt).not.toBeNull();
    expect(list.rows.find((r) => r.name === 'Luthagen')).toMatchObject({ refreshedAt: null, rooms: [], freeToday: 'unknown' });
  });

  it('groups by city with the systems without one last, and pages the result with its total', async () => {
    expect(await names({ group: 'city' })).toEqual(['Flogsta', 'Ekhagen', 'Gottsunda', '100% Hus', 'Luthagen']);
    expect(await names({ group: 'area' })).toEqual(['Ekhagen', 'Gottsunda', 'Flogsta', '100% Hus', 'Luthagen']);
    const page = await loadSystemList({ db: db(), now: () => NOW }, visibleTo(adminId), params({ q: 'g', size: 25 }));
    // Every one with a g somewhere but "100% Hus".
    expect(page.total).toBe(4);
    expect(page.pages).toBe(1);
    const second = await loadSystemList({ db: db(), now: () => NOW }, visibleTo(adminId), params({ page: 2, size: 25 }));
    expect(second.rows).toEqual([]);
    const beyond = await loadSystemList({ db: db(), now: () => NOW }, visibleTo(adminId), params({ page: 9 }));
    expect(beyond.rows).toEqual([]);
    // The areas still come back for the controls.
    expect(beyond.areas).toEqual(['Norr', 'Syd']);
  });

  it('knows free slots today only from loaded copies, after the pass that works them out; a change makes it unknown again', async () => {
    const deps = { db: db(), now: () => NOW };
    // Before the pass nothing is known, and the filter keeps nothing.
    expect((await loadSystemList(deps, visibleTo(adminId), params())).rows.every((r) => r.freeToday === 'unknown')).toBe(true);
    expect(await names({ filters: ['free'] })).toEqual([]);
    // Gottsunda's one room is booked from now to the end of the Stockholm day (22:00 UTC).
    const gottsundaRoom = (await ctx().handle.sql.query<{ id: string }>(`SELECT r.id FROM mirror_resources r JOIN mirror_state s USING (device_id, generation) WHERE r.device_id = $1`, [ids.gottsunda])).rows[0]!.id;
    await applyReservationChange(db(), {
      type: 'created',
      reservation: {
        id: randomUUID(),
        deviceId: ids.gottsunda,
        resourceId: gottsundaRoom,
        userId: null,
        ownerId: null,
        ownerType: 'Service',
        status: 'Unused',
        startTime: '2026-06-10T10:00:00Z',
        endTime: '2026-06-10T22:00:00Z',
      },
    });
    await warmFreeToday(deps, { force: true });
    const after = await loadSystemList(deps, visibleTo(adminId), params());
    const answer = Object.fromEntries(after.rows.map((r) => [r.name, r.freeToday]));
    expect(answer).toEqual({ '100% Hus': 'unknown', Ekhagen: 'yes', Flogsta: 'yes', Gottsunda: 'no', Luthagen: 'unknown' });
    expect(await names({ filters: ['free'] })).toEqual(['Ekhagen', 'Flogsta']);
    expect(await names({ filters: ['free'], area: 'Norr' })).toEqual(['Ekhagen']);
    // A new copy of Ekhagen: its answer was of the old one.
    await loadCopy(db(), ids.ekhagen, ['Tvättstuga 1']);
    expect(await names({ filters: ['free'] })).toEqual(['Flogsta']);
    expect((await loadSystemList(deps, visibleTo(adminId), params({ q: 'ekhagen' }))).rows[0]?.freeToday).toBe('unknown');
  });
});

describeWithDb('the systems list at a thousand systems', (ctx) => {
  let adminId = '';
  beforeAll(async () => {
    const connectionId = randomUUID();
    await ctx().handle.db.insert(connections).values({ id: connectionId, approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' });
    // 1,000 systems over 10 cities and 20 areas, each with a loaded copy of four rooms.
    await ctx().handle.db.execute(sql`
      INSERT INTO systems (device_id, connection_id, name, street, city, area)
      SELECT md5('s' || i)::uuid, ${connectionId}::uuid, 'Fastighet ' || lpad(i::text, 4, '0'), 'Gatan ' || i, 'Stad ' || (i % 10), 'Område ' || (i % 20)
        FROM generate_series(1, 1000) AS i`);
    await ctx().handle.db.execute(sql`
      INSERT INTO mirror_state (device_id, generation, refreshed_at) SELECT md5('s' || i)::uuid, 1, now() FROM generate_series(1, 1000) AS i`);
    await ctx().handle.db.execute(sql`
      INSERT INTO mirror_resources (device_id, generation, id, name, description, time_schedule_id)
      SELECT md5('s' || i)::uuid, 1, md5('r' || i || '-' || k)::uuid, 'Tvättstuga ' || i || '-' || k, '', '' FROM generate_series(1, 1000) AS i, generate_series(1, 4) AS k`);
    adminId = (await createUser(ctx().handle.db, { email: `admin-${randomUUID()}@example.com`, name: 'Ada', role: 'admin' })).id;
  });

  it('answers a page, a search over every room and a filter in ONE statement, and the page stays small', async () => {
    const counted = await countingDb(ctx().handle);
    const deps = { db: counted.db, now: () => NOW };
    const before = counted.queries();
    const list = await loadSystemList(deps, visibleTo(adminId), params({ q: 'tvättstuga 77', group: 'area', size: 100 }));
    expect(counted.queries() - before).toBe(1);
    // Every system whose number holds "77": 77, 177 … 977 and 770 … 779 (their rooms, names and streets).
    expect(list.total).toBe(19);
    expect(list.rows.map((r) => r.name)).toContain('Fastighet 0778');
    const page = await loadSystemList(deps, visibleTo(adminId), params({ size: 100, page: 3 }));
    expect(page.total).toBe(1000);
    expect(page.rows).toHaveLength(100);
    expect(page.rows[0]?.name).toBe('Fastighet 0201');
    expect(page.areas).toHaveLength(20);
    expect(JSON.stringify(page).length).toBeLessThan(200_000);
  });
});
