import { expect, it } from 'vitest';
import type { SqlRunner } from '@/shared/sql-runner';
import { describeWithDb } from '@/tests/db';
import { mirrorSnapshot } from './snapshot';
import { claimRefresh, completeRefresh, insertPage, readState } from './store';
import type { MirrorResource, MirrorTimeSchedule, MirrorUserGroup } from './types';

const DEVICE = '5a1d0000-0000-4000-8000-000000000001';
const SCHEDULE = '5a1d0000-0000-4000-8000-0000000000a1';
const ROOM_A = '5a1d0000-0000-4000-8000-0000000000b1';
const ROOM_B = '5a1d0000-0000-4000-8000-0000000000b2';
const GROUP = '5a1d0000-0000-4000-8000-0000000000c1';

const schedule: MirrorTimeSchedule = { id: SCHEDULE, deviceId: DEVICE, scheduleType: 'Week', schedule: [[[360, 180]], [], [], [], [], [], []] };
const room = (id: string, name: string): MirrorResource => ({ id, deviceId: DEVICE, name, description: `${name} room`, timeScheduleId: SCHEDULE.toUpperCase() });
const group = (apartmentId: string): MirrorUserGroup => ({ id: GROUP, deviceId: DEVICE, name: `Lgh ${apartmentId}`, apartmentId, referenceId: 'REF-1' });

/** A complete refresh writing the given rows as the next generation. */
async function refreshWith(sql: SqlRunner, resources: MirrorResource[], groups: MirrorUserGroup[]): Promise<void> {
  const current = await claimRefresh(sql, DEVICE, 300);
  if (current === null) throw new Error('lease held');
  await insertPage(sql, 'resources', DEVICE, current + 1, resources);
  await insertPage(sql, 'timeSchedules', DEVICE, current + 1, [schedule]);
  await insertPage(sql, 'userGroups', DEVICE, current + 1, groups);
  await completeRefresh(sql, DEVICE, current + 1, new Date(), 3);
}

function counting(sql: SqlRunner): { runner: SqlRunner; queries: () => number } {
  let queries = 0;
  const runner: SqlRunner = {
    exec: (script) => sql.exec(script),
    query: (text, params) => {
      queries += 1;
      return sql.query(text, params);
    },
    transaction: (fn) => sql.transaction(fn),
  };
  return { runner, queries: () => queries };
}

describeWithDb('mirror snapshots', (ctx) => {
  it('is null for a system that has no mirror', async () => {
    expect(await mirrorSnapshot(ctx().handle.sql, '5a1d0000-0000-4000-8000-00000000ffff', { generation: 0, refreshedAt: null })).toBeNull();
  });

  it('reads resources with their schedules and the groups once per generation, then serves them from memory', async () => {
    const { runner, queries } = counting(ctx().handle.sql);
    await refreshWith(ctx().handle.sql, [room(ROOM_B, 'Tvättstuga B'), room(ROOM_A, 'Tvättstuga A')], [group('1201')]);
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
    const { runner } = counting(ctx().handle.sql);
    const old = await readState(runner, DEVICE);
    if (!old) throw new Error('no state');
    const held = await mirrorSnapshot(runner, DEVICE, old);
    expect(held?.resourceById.get(ROOM_A)?.name).toBe('Tvättstuga A');

    await refreshWith(ctx().handle.sql, [room(ROOM_A, 'Tvättstuga A (renoverad)')], [group('1202')]);
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
