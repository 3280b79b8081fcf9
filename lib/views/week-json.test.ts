import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox } from '@/sandbox';
import { startTestSandbox } from '@/tests/sandbox-service';
import { countingDb, describeWithDb } from '@/tests/db';
import { createUser } from '@/lib/auth/users';
import { readTogether } from '@/lib/db/read-together';
import { reservationRequests } from '@/lib/db/schema';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import type { Resource } from '@/lib/service';
import { shiftWeekKey, weekKeyOf } from '@/lib/schedule';
import type { SystemPublic } from '@/lib/systems/schemas';
import { systemMirror, type ViewDeps } from './freshness';
import { anyZoneWeekRange, loadResourceWeek, nextSlotChange, resourceWeekJson, WEEK_JSON_HOLD_MS, weekInputReads } from './resource-week';
import type { ResourceWeekView } from './types';

// The tests move the clock ahead to the next slot boundary: no refresh may fall due meanwhile.
const YEAR_MS = 365 * 86_400_000;

describeWithDb('the week API answer, held until it could change', (ctx) => {
  let sandbox: Sandbox;
  let system: SystemPublic;
  let deps: ViewDeps;
  let resource: Resource;
  let requestedBy = '';
  let queries = () => 0;

  beforeAll(async () => {
    const started = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 11 });
    sandbox = started.sandbox;
    const approval = started.fixtures.approvals[0]!;
    const apiKey = (await started.client.apiKeys.generate(approval.approvalId)).apiKey;
    const deviceId = approval.deviceIds[0]!;
    system = { deviceId, name: 'Demo', timeZone: 'Europe/Stockholm', status: 'active', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null };
    // Every read of the suite counted (the held answers live per database handle, so one handle throughout).
    const counting = await countingDb(ctx().handle);
    queries = counting.queries;
    deps = { db: counting.db, source: () => Promise.resolve(serviceMirrorSource(started.client, apiKey)), freshnessMs: YEAR_MS };
    await systemMirror(deps, deviceId);
    await waitForRefresh(deviceId);
    resource = (await started.client.resources.list(apiKey, deviceId).toArray({ limit: 100 }))[0]!;
    requestedBy = (await createUser(ctx().handle.db, { email: 'held@example.com', name: 'Held', role: 'manager' })).id;
  }, 120_000);
  afterAll(async () => {
    await sandbox.stop();
  });

  const at = (ms: number): ViewDeps => ({ ...deps, now: () => new Date(ms) });
  const inputsOf = async (db: ViewDeps['db'], week: string | undefined, nowMs: number) => readTogether(db, weekInputReads(system.deviceId, resource.id, anyZoneWeekRange(week, nowMs)));
  const json = async (nowMs: number, week?: string) => JSON.parse(await resourceWeekJson(at(nowMs), system, resource.id, week, await inputsOf(deps.db, week, nowMs))) as ResourceWeekView;

  it('answers the same computation again while nothing it shows can change, with no statement of its own', async () => {
    const now = Date.now();
    const first = await json(now);
    const inputs = await inputsOf(deps.db, undefined, now + 1_000);
    const before = queries();
    const again = JSON.parse(await resourceWeekJson(at(now + 1_000), system, resource.id, undefined, inputs)) as ResourceWeekView;
    expect(queries() - before).toBe(0);
    // Held: computed at the first call's time, not recomputed for the second.
    expect(again.generatedAt).toBe(first.generatedAt);
    expect(again.slots).toEqual(first.slots);
    // The same as the view computed afresh at that time.
    expect(again).toEqual(JSON.parse(JSON.stringify(await loadResourceWeek(at(first.generatedAt), system, resource.id))));
  });

  it('computes again once a slot starts or ends, and after the longest hold', async () => {
    const first = await json(Date.now());
    // Held from an earlier test maybe: the hold counts from when it was computed.
    const now = first.generatedAt;
    const change = nextSlotChange(first.slots, now, first.horizonEnd - now);
    const justBefore = Math.min(change, now + WEEK_JSON_HOLD_MS) - 1;
    if (justBefore > now) expect((await json(justBefore)).generatedAt).toBe(first.generatedAt);
    expect((await json(now + WEEK_JSON_HOLD_MS)).generatedAt).toBe(now + WEEK_JSON_HOLD_MS);
    const afterChange = change + 1;
    expect((await json(afterChange)).generatedAt).toBe(afterChange);
  });

  it('shows a new booking request at once: the requests read are part of what it is held for', async () => {
    const week = shiftWeekKey(weekKeyOf(Date.now(), system.timeZone), 1);
    const now = Date.now();
    const before = await json(now, week);
    const free = before.slots.find((s) => s.state === 'free' && s.bookable);
    if (!free) throw new Error('the demo preset leaves free slots next week');
    await ctx().handle.db.insert(reservationRequests).values({
      id: randomUUID(),
      kind: 'create',
      deviceId: system.deviceId,
      resourceId: resource.id,
      residentUserId: randomUUID(),
      startTime: new Date(free.startMs),
      endTime: new Date(free.endMs),
      requestedBy,
      status: 'pending',
      correlationId: randomUUID(),
    });
    const after = await json(now + 1_000, week);
    expect(after.generatedAt).toBe(now + 1_000);
    expect(after.requests.map((r) => r.startTime)).toContain(new Date(free.startMs).toISOString());
  });

  it('reads over a range that covers the week in any zone, and keeps what the exact range would have found', async () => {
    for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Stockholm']) {
      const zoned = { ...system, timeZone };
      for (const week of [undefined, shiftWeekKey(weekKeyOf(Date.now(), timeZone), 1)]) {
        const now = Date.now();
        const own = await loadResourceWeek(at(now), zoned, resource.id, week);
        const given = await loadResourceWeek(at(now), zoned, resource.id, week, await inputsOf(deps.db, week, now));
        expect(given).toEqual(own);
      }
    }
  });
});

describe('nextSlotChange', () => {
  it('is the first start, end or entry into the horizon after now', () => {
    const slots = [
      { startMs: 100, endMs: 200 },
      { startMs: 300, endMs: 400 },
    ];
    expect(nextSlotChange(slots, 150, 1_000)).toBe(200);
    expect(nextSlotChange(slots, 250, 1_000)).toBe(300);
    // A slot ending 1,000 after its entry point comes within a horizon of 150 at 250.
    expect(nextSlotChange(slots, 210, 150)).toBe(250);
    expect(nextSlotChange(slots, 400, 1_000)).toBe(Number.POSITIVE_INFINITY);
  });
});
