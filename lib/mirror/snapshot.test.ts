import { expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { countingDb, describeWithDb } from '@/tests/db';
import { mirrorSnapshot } from './snapshot';
import { claimRefreshWith, completeRefresh, insertPage, readState } from './store';
import type { MirrorResource, MirrorTimeSchedule, MirrorUserGroup } from './types';

const DEVICE = '5a1d0000-0000-4000-8000-000000000001';
const SCHEDULE = '5a1d0000-0000-4000-8000-0000000000a1';
const ROOM_A = '5a1d0000-0000-4000-8000-0000000000b1';
const ROOM_B = '5a1d0000-0000-4000-8000-0000000000b2';
const GROUP = '5a1d0000-0000-4000-8000-0000000000c1';

const schedule: MirrorTimeSchedule = { id: SCHEDULE, deviceId: DEVICE, scheduleType: 'Week', schedule: [[[360, 180]], [], [], [], [], [], []] };
const room = (id: string, name: string): MirrorResource => ({ id, deviceId: DEVICE, name, description: `${name} room`, timeScheduleId: SCHEDULE });
const group = (apartmentId: string): MirrorUserGroup => ({ id: GROUP, deviceId: DEVICE, name: `Lgh ${apartmentId}`, apartmentId, referenceId: 'REF-1' });

/** A complete refresh writing the given rows as the next generation. */
async function refreshWith(db: Database, resources: MirrorResource[], groups: MirrorUserGroup[]): Promise<void> {
  const claim = await claimRefreshWith(db, DEVICE, 300);
  if (claim === null) throw new Error('lease held');
  const current = claim.generation;
  await insertPage(db, 'resources', DEVICE, current + 1, resources);
  await insertPage(db, 'timeSchedules', DEVICE, current + 1, [schedule]);
  await insertPage(db, 'userGroups', DEVICE, current + 1, groups);
  await completeRefresh(db, DEVICE, claim.refreshId, current + 1, new Date(), 3);
}

describeWithDb('mirror snapshots', (ctx) => {
  it('is null for a system that has no mirror', async () => {
    expect(await mirrorSnapshot(ctx().handle.db, '5a1d0000-0000-4000-8000-00000000ffff', { generation: 0, refreshedAt: null })).toBeNull();
  });

  it('reads resources with their schedules and the groups once per generation, then serves them from memory', async () => {
    const { db: runner, queries } = await countingDb(ctx().handle);
    await refreshWith(ctx().handle.db, [room(ROOM_B, 'Tvättstuga B'), room(ROOM_A, 'Tvättstuga A')], [group('1201')]);
    const state = await readState(runner, DEVICE);
    if (!state) throw new Error('no state');
    const before = queries();

    const first = await mirrorSnapshot(runner, DEVICE, state);
    expect(first?.generation).toBe(state.generation);
    expect(first?.resources.map((r) => r.name)).toEqual(['Tvättstuga A', 'Tvättstuga B']);
    expect(first?.resourceById.get(ROOM_A)?.schedule).toEqual(schedule.schedule);
    expect(first?.groupById.get(GROUP)).toMatchObject({ apartmentId: '1201', referenceId: 'REF-1' });
    expect(queries() - before).toBe(1);

    const again = await mirrorSnapshot(runner, DEVICE, state);
    expect(again).toBe(first);
    expect(queries() - before).toBe(1);
  });

  it('reads the new generation as soon as the state names it, never the old copy', async () => {
    const { db: runner } = await countingDb(ctx().handle);
    const old = await readState(runner, DEVICE);
    if (!old) throw new Error('no state');
    const held = await mirrorSnapshot(runner, DEVICE, old);
    expect(held?.resourceById.get(ROOM_A)?.name).toBe('Tvättstuga A');

    await refreshWith(ctx().handle.db, [room(ROOM_A, 'Tvättstuga A (renoverad)')], [group('1202')]);
    const state = await readState(runner, DEVICE);
    if (!state) throw new Error('no state');
    expect(state.generation).toBeGreaterThan(old.generation);

    const fresh = await mirrorSnapshot(runner, DEVICE, state);
    expect(fresh).not.toBe(held);
    expect(fresh?.resources.map((r) => r.name)).toEqual(['Tvättstuga A (renoverad)']);
    expect(fresh?.resourceById.has(ROOM_B)).toBe(false);
    expect(fresh?.groupById.get(GROUP)?.apartmentId).toBe('1202');
  });
});
