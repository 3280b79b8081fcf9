import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { isApiError } from '@/lib/errors/api-error';
import type { SessionUser } from '@/lib/auth/schemas';
import { createUser, setManagerSystems } from '@/lib/auth/users';
import type { RequestFilters } from '@/lib/client/request-filters';
import { reservationRequests } from '@/lib/db/schema';
import { storeConnection } from '@/lib/systems/store';
import type { SystemPublic } from '@/lib/systems/schemas';
import { describeWithDb } from '@/tests/db';
import { parseRequestsQuery } from './request-filters';
import { listRequestsPage, readRequestsFor, requestsTimeZone, type RequestsPageView } from './requests';

const A = '0a000000-0000-4000-8000-000000000001';
const B = '0b000000-0000-4000-8000-000000000002';
const C = '0c000000-0000-4000-8000-000000000003';
const ANNA = 'a0000000-0000-4000-8000-00000000000a';
const BO = 'b0000000-0000-4000-8000-00000000000b';

interface Seed {
  device: string;
  at: string;
  kind?: 'create' | 'cancel';
  status?: 'sending' | 'pending' | 'succeeded' | 'failed';
  unknown?: boolean;
  resident?: string;
  name?: string;
  apartment?: string;
  room?: string;
  by?: string;
  note?: string;
}

describeWithDb('the Requests list (filters, keyset paging, access)', (ctx) => {
  let admin: SessionUser;
  let manager: SessionUser;
  let systemsOfManager: SystemPublic[];
  let allSystems: SystemPublic[];
  const ids: Record<string, string> = {};

  async function seed(label: string, s: Seed) {
    const [row] = await ctx()
      .handle.db.insert(reservationRequests)
      .values({
        kind: s.kind ?? 'create',
        status: s.status ?? 'succeeded',
        deviceId: s.device,
        requestedBy: 'someone',
        requestedByName: s.by ?? 'Demo Manager',
        residentUserId: s.resident ?? ANNA,
        residentName: s.name ?? 'Anna Berg',
        residentApartment: s.apartment ?? '1203',
        resourceName: s.room ?? 'Laundry room 1',
        outcomeUnknownSince: s.unknown ? new Date() : null,
        note: s.note ?? null,
        // Microseconds, as now() writes them: two requests may share a millisecond.
        createdAt: sql`${s.at}::timestamptz`,
      })
      .returning({ id: reservationRequests.id });
    if (!row) throw new Error('no row');
    ids[label] = row.id;
  }

  const names = (page: RequestsPageView) => page.requests.map((r) => Object.entries(ids).find(([, id]) => id === r.id)?.[0]);
  const read = (filters: RequestFilters, extra: Partial<Parameters<typeof listRequestsPage>[1]> = {}) =>
    listRequestsPage(ctx().handle.db, { filters, scope: 'all', limit: 50, ...extra });

  beforeAll(async () => {
    const { db } = ctx().handle;
    const { systems } = await storeConnection(db, { approvalId: `approval-${randomUUID()}`, apiKey: 'k', deviceIds: [A, B, C], encryptionKey: randomBytes(32) });
    allSystems = systems;
    admin = await createUser(db, { email: `admin-${randomUUID()}@example.com`, name: 'Admin', role: 'admin' });
    manager = await createUser(db, { email: `manager-${randomUUID()}@example.com`, name: 'Manager', role: 'manager' });
    await setManagerSystems(db, manager.id, [A, B]);
    systemsOfManager = systems.filter((s) => s.deviceId !== C);
    // Oldest first. t2a and t2b share a millisecond; t3a and t3b share the microsecond (id breaks the tie).
    await seed('t1', { device: A, at: '2026-11-01T08:00:00.000000Z', status: 'failed' });
    await seed('t2a', { device: A, at: '2026-11-02T08:00:00.000100Z', kind: 'cancel' });
    await seed('t2b', { device: B, at: '2026-11-02T08:00:00.000900Z', status: 'pending', resident: BO, name: 'Bo Ek', apartment: '7 B/2' });
    await seed('t3a', { device: A, at: '2026-11-03T23:30:00.000000Z', status: 'pending', unknown: true, room: 'Drying room 100%' });
    await seed('t3b', { device: A, at: '2026-11-03T23:30:00.000000Z', status: 'sending', by: 'Olga Ops', note: 'Asked at the front desk' });
    await seed('t4', { device: C, at: '2026-11-04T08:00:00.000000Z' });
    await seed('t5', { device: B, at: '2026-11-05T08:00:00.000000Z', resident: BO, name: 'Bo Ek', apartment: '7 B/2' });
  }, 60_000);

  it('pages through everything newest first with "older" markers, never repeating or skipping a row, at every page size', async () => {
    const tie = [ids.t3a, ids.t3b].sort().reverse();
    for (let limit = 1; limit <= 7; limit += 1) {
      const seen: string[] = [];
      let page = await read({}, { limit });
      expect(page.newer).toBeNull();
      for (let i = 0; i < 10; i += 1) {
        seen.push(...page.requests.map((r) => r.id));
        if (!page.older) break;
        const before = parseRequestsQuery(new URLSearchParams({ before: page.older })).before;
        page = await read({}, { limit, before });
        expect(page.newer).not.toBeNull();
      }
      expect(seen, `pages of ${limit}`).toEqual([ids.t5, ids.t4, ...tie, ids.t2b, ids.t2a, ids.t1]);
    }
    // A full last page says there is no older one.
    expect((await read({}, { limit: 7 })).older).toBeNull();
    expect((await read({}, { limit: 6 })).older).not.toBeNull();
  });

  it('goes back to newer pages from an "after" marker, and the newest page has no "newer"', async () => {
    const first = await read({}, { limit: 3 });
    const second = await read({}, { limit: 3, before: parseRequestsQuery(new URLSearchParams({ before: first.older ?? '' })).before });
    expect(names(second)).toEqual(expect.arrayContaining(['t2b']));
    const back = await read({}, { limit: 3, after: parseRequestsQuery(new URLSearchParams({ after: second.newer ?? '' })).after });
    expect(back.requests.map((r) => r.id)).toEqual(first.requests.map((r) => r.id));
    expect(back.newer).toBeNull();
    expect(back.older).toBe(first.older);
  });

  it('filters by status, in the words the list uses', async () => {
    expect(names(await read({ status: 'failed' }))).toEqual(['t1']);
    expect(names(await read({ status: 'cancelled' }))).toEqual(['t2a']);
    expect(names(await read({ status: 'booked' }))).toEqual(['t5', 't4']);
    expect(new Set(names(await read({ status: 'pending' })))).toEqual(new Set(['t3a', 't3b', 't2b']));
    expect(names(await read({ status: 'unknown' }))).toEqual(['t3a']);
  });

  it('filters by system, resident and day range, days read in the given zone', async () => {
    expect(names(await read({ deviceId: B }))).toEqual(['t5', 't2b']);
    expect(names(await read({ resident: BO }))).toEqual(['t5', 't2b']);
    // 23:30 UTC on 3 November is already 4 November in Stockholm.
    const q = parseRequestsQuery(new URLSearchParams('from=2026-11-04&to=2026-11-04'));
    const stockholm = await readRequestsFor(ctx().handle.db, admin, allSystems.map((s) => ({ ...s, timeZone: 'Europe/Stockholm' })), q);
    expect(new Set(names(stockholm))).toEqual(new Set(['t3a', 't3b', 't4']));
    const utc = await readRequestsFor(ctx().handle.db, admin, allSystems.map((s) => ({ ...s, timeZone: 'UTC' })), q);
    expect(names(utc)).toEqual(['t4']);
  });

  it('searches resident name, apartment, room, who asked and the note, case-insensitively, with % and _ taken literally', async () => {
    expect(names(await read({ q: 'bo ek' }))).toEqual(['t5', 't2b']);
    expect(names(await read({ q: '7 b/2' }))).toEqual(['t5', 't2b']);
    expect(names(await read({ q: 'drying' }))).toEqual(['t3a']);
    expect(names(await read({ q: 'olga' }))).toEqual(['t3b']);
    expect(names(await read({ q: 'FRONT desk' }))).toEqual(['t3b']);
    expect(names(await read({ q: '100%' }))).toEqual(['t3a']);
    expect(names(await read({ q: '%' }))).toEqual(['t3a']);
    expect(names(await read({ q: '_' }))).toEqual([]);
    expect(names(await read({ q: 'Bo', status: 'booked' }))).toEqual(['t5']);
  });

  it("shows a manager only their systems' requests and refuses another system with 403, never widening", async () => {
    const { db } = ctx().handle;
    const mine = await readRequestsFor(db, manager, systemsOfManager, parseRequestsQuery(new URLSearchParams()));
    expect(names(mine)).not.toContain('t4');
    expect(mine.requests).toHaveLength(6);
    const refused = await readRequestsFor(db, manager, systemsOfManager, parseRequestsQuery(new URLSearchParams(`deviceId=${C}`))).catch((e: unknown) => e);
    expect(isApiError(refused) && refused.code).toBe('forbidden');
    // Even called without the check, the scope holds.
    expect((await listRequestsPage(db, { filters: { deviceId: C }, scope: [A, B], limit: 50 })).requests).toEqual([]);
    expect((await listRequestsPage(db, { filters: {}, scope: [], limit: 50 })).requests).toEqual([]);
    // Admins see every system; one that does not exist is a 404.
    expect((await readRequestsFor(db, admin, allSystems, parseRequestsQuery(new URLSearchParams()))).requests).toHaveLength(7);
    const missing = await readRequestsFor(db, admin, allSystems, parseRequestsQuery(new URLSearchParams(`deviceId=${randomUUID()}`))).catch((e: unknown) => e);
    expect(isApiError(missing) && missing.code).toBe('not_found');
  });

  it('says in which zone the date filter counts days', () => {
    const sys = (deviceId: string, timeZone: string) => ({ deviceId, timeZone });
    expect(requestsTimeZone([sys(A, 'Europe/Stockholm'), sys(B, 'Europe/Stockholm')])).toBe('Europe/Stockholm');
    expect(requestsTimeZone([sys(A, 'Europe/Stockholm'), sys(B, 'Europe/Helsinki')])).toBe('UTC');
    expect(requestsTimeZone([sys(A, 'Europe/Stockholm'), sys(B, 'Europe/Helsinki')], B)).toBe('Europe/Helsinki');
    expect(requestsTimeZone([])).toBe('UTC');
  });
});
