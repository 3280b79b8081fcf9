import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './sandbox';
import { openTestSql, SandboxClient, sandboxDbTargets, type TestSql } from './testing';

for (const target of sandboxDbTargets()) {
  describe(`sandbox bookings made outside the portal [${target}]`, () => {
    let db: TestSql;
    let sandbox: Sandbox;
    let client: SandboxClient;

    beforeAll(async () => {
      db = await openTestSql(target);
      sandbox = createSandbox({ sql: db.sql, preset: 'tiny', seed: 1, workers: false });
      await sandbox.start();
      client = new SandboxClient(sandbox);
    });
    afterAll(async () => {
      await sandbox.stop();
      await db.close();
    });

    it('writes a panel booking straight into the data: listed by the service, with no request or webhook', async () => {
      const f = await client.fixtures();
      const deviceId = f.approvals[0]!.deviceIds[0]!;
      const resident = f.residents.find((r) => r.deviceId === deviceId && r.resourceIds.length > 0)!;
      const created = await client.call('POST', '/_sandbox/panel-reservations', {
        json: { resourceId: resident.resourceIds[0], startTime: '2099-03-02T06:00Z', endTime: '2099-03-02T09:00Z', userId: resident.userId },
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const mine = (await (await client.v1('GET', `/v1/reservations/users/${resident.userId}/reservations`)).json()) as { id: string; startTime: string; ownerType: string }[];
      expect(mine.find((r) => r.id === id)).toMatchObject({ ownerType: 'Group' });
      const { rows } = await db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox.outbox');
      expect(rows[0]!.n).toBe(0);
      // Checked like any control body.
      expect((await client.call('POST', '/_sandbox/panel-reservations', { json: { resourceId: resident.resourceIds[0], startTime: '2099-03-02T09:00Z', endTime: '2099-03-02T06:00Z' } })).status).toBe(400);
      expect((await client.call('POST', '/_sandbox/panel-reservations', { json: { resourceId: deviceId, startTime: '2099-03-02T06:00Z', endTime: '2099-03-02T09:00Z' } })).status).toBe(404);
    });
  });
}
