import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox, SandboxFixtures } from '@/sandbox';
import type { ServiceClient } from '@/lib/service';
import { describeWithDb } from '@/tests/db';
import { startTestSandbox } from '@/tests/sandbox-service';
import { structureDue } from './policy';
import { refreshSystem } from './refresh';
import { serviceMirrorSource } from './service-source';
import { readReservations, readResources, readState, readTimeSchedules, readUserGroups } from './store';
import type { MirrorPage, MirrorSource } from './types';

const ALL = { from: new Date(0), to: new Date('2100-01-01') };

it('re-reads rooms, schedules and groups on a first load, after an unfinished list and every Nth generation only', () => {
  expect(structureDue({ generation: 1, loaded: false, incomplete: false }, 10)).toBe(true);
  expect(structureDue({ generation: 2, loaded: true, incomplete: false }, 10)).toBe(false);
  expect(structureDue({ generation: 9, loaded: true, incomplete: false }, 10)).toBe(false);
  expect(structureDue({ generation: 10, loaded: true, incomplete: false }, 10)).toBe(true);
  expect(structureDue({ generation: 3, loaded: true, incomplete: true }, 10)).toBe(true);
  expect(structureDue({ generation: 3, loaded: true, incomplete: false }, 1)).toBe(true);
});

// A re-read spends the budget on reservations and shows what it reads as it reads it: against the
// in-process sandbox behind the real service client, on PGlite (and PostgreSQL in its suite).
describeWithDb('mirror re-reads: reservations first, applied per page', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;
  let apiKey: string;
  let deviceId: string;
  const paths: string[] = [];

  beforeAll(async () => {
    ({ sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'demo', seed: 7 }, (request) => {
      paths.push(new URL(request.url).pathname);
    }));
    const approval = fixtures.approvals[0]!;
    deviceId = approval.deviceIds[0]!;
    apiKey = (await client.apiKeys.generate(approval.approvalId)).apiKey;
  }, 120_000);
  afterAll(async () => {
    await sandbox.stop();
  });

  const source = (): MirrorSource => serviceMirrorSource(client, apiKey);
  const structureRequests = () => paths.filter((p) => /\/resources\/|\/timeschedules\/|\/usergroups\//.test(p)).length;

  it('carries rooms, schedules and groups over on most re-reads and requests only the reservations (and users)', async () => {
    const { db } = ctx().handle;
    const first = await refreshSystem(db, deviceId, source(), { structureEvery: 10 });
    expect(first).toMatchObject({ status: 'refreshed', structure: 'read' });
    const before = { resources: await readResources(db, deviceId), schedules: await readTimeSchedules(db, deviceId), groups: await readUserGroups(db, deviceId) };
    expect(before.resources.length).toBeGreaterThan(0);
    const firstCost = (await readState(db, deviceId))!.lastRequests;

    paths.length = 0;
    const second = await refreshSystem(db, deviceId, source(), { structureEvery: 10 });
    expect(second).toMatchObject({ status: 'refreshed', structure: 'carried' });
    expect(structureRequests()).toBe(0);
    expect(paths.some((p) => /\/v1\/reservations\/[^/]+\/all$/.test(p))).toBe(true);
    const state = (await readState(db, deviceId))!;
    expect(state.generation).toBe(2);
    expect(state.lastRequests).toBeLessThan(firstCost);
    expect(await readResources(db, deviceId)).toEqual(before.resources);
    expect(await readTimeSchedules(db, deviceId)).toEqual(before.schedules);
    expect(await readUserGroups(db, deviceId)).toEqual(before.groups);

    // The 10th generation reads them all again; without the setting, every re-read does.
    await ctx().handle.sql.query('UPDATE mirror_state SET generation = 9 WHERE device_id = $1', [deviceId]);
    await ctx().handle.sql.query('UPDATE mirror_resources SET generation = 9 WHERE device_id = $1', [deviceId]);
    await ctx().handle.sql.query('UPDATE mirror_time_schedules SET generation = 9 WHERE device_id = $1', [deviceId]);
    await ctx().handle.sql.query('UPDATE mirror_user_groups SET generation = 9 WHERE device_id = $1', [deviceId]);
    await ctx().handle.sql.query('UPDATE mirror_users SET generation = 9 WHERE device_id = $1', [deviceId]);
    await ctx().handle.sql.query('UPDATE mirror_reservations SET generation = 9 WHERE device_id = $1', [deviceId]);
    paths.length = 0;
    expect(await refreshSystem(db, deviceId, source(), { structureEvery: 10 })).toMatchObject({ status: 'refreshed', structure: 'read' });
    expect(structureRequests()).toBeGreaterThanOrEqual(3);
    paths.length = 0;
    expect(await refreshSystem(db, deviceId, source())).toMatchObject({ status: 'refreshed', structure: 'read' });
    expect(structureRequests()).toBeGreaterThanOrEqual(3);
  });

  it('shows a booking made outside the portal as soon as its page is read, and drops a deleted one only at the end', async () => {
    const { db, sql } = ctx().handle;
    await refreshSystem(db, deviceId, source());
    const resourceId = (await readResources(db, deviceId))[0]!.id;
    const gone = (await readReservations(db, deviceId, ALL))[0]!;
    // As a door panel would: straight into the service's data, no portal request, no webhook.
    const outside = randomUUID();
    const start = new Date(Date.UTC(2099, 0, 5, 6, 0));
    await sql.query(
      `INSERT INTO sandbox.reservations (id, device_id, resource_id, owner_type, status, start_time, end_time) VALUES ($1, $2, $3, 'Service', 'Unused', $4, $5)`,
      [outside, deviceId, resourceId, start.toISOString(), new Date(start.getTime() + 3 * 3_600_000).toISOString()],
    );
    await sql.query('DELETE FROM sandbox.reservations WHERE id = $1', [gone.id]);
    const stateBefore = (await readState(db, deviceId))!;

    // The reservations list held open after its last page, until the test has looked.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let lastPageRead!: () => void;
    const lastPage = new Promise<void>((resolve) => (lastPageRead = resolve));
    const real = source();
    const held: MirrorSource = {
      ...real,
      reservations: (id) =>
        (async function* () {
          for await (const page of real.reservations(id) as AsyncIterable<MirrorPage<never>>) yield page;
          lastPageRead();
          await gate;
        })(),
    };
    const running = refreshSystem(db, deviceId, held);
    await lastPage;
    // The page is written while the list is still open (its write follows the next fetch's start).
    await expect.poll(async () => (await readReservations(db, deviceId, ALL)).some((r) => r.id === outside), { timeout: 5_000 }).toBe(true);
    const during = (await readState(db, deviceId))!;
    expect(during.generation).toBe(stateBefore.generation);
    expect(during.reservationsVersion).toBeGreaterThan(stateBefore.reservationsVersion);
    // A deletion is known only once the whole list is: still shown until the switch.
    expect((await readReservations(db, deviceId, ALL)).some((r) => r.id === gone.id)).toBe(true);
    release();
    expect(await running).toMatchObject({ status: 'refreshed' });
    const after = await readReservations(db, deviceId, ALL);
    expect(after.some((r) => r.id === outside)).toBe(true);
    expect(after.some((r) => r.id === gone.id)).toBe(false);
  });

  it('leaves the shown copy and its version alone when a re-read finds nothing new', async () => {
    const { db } = ctx().handle;
    await refreshSystem(db, deviceId, source());
    const before = (await readState(db, deviceId))!;
    let versionDuring = -1;
    const real = source();
    const watched: MirrorSource = {
      ...real,
      reservations: (id) =>
        (async function* () {
          for await (const page of real.reservations(id) as AsyncIterable<MirrorPage<never>>) yield page;
          versionDuring = (await readState(db, deviceId))!.reservationsVersion;
        })(),
    };
    await refreshSystem(db, deviceId, watched);
    expect(versionDuring).toBe(before.reservationsVersion);
  });
});
