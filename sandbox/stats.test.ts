import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './sandbox';
import { RequestStats, STATS_MAX_DEVICES, OTHER_DEVICES, type RequestStatsView } from './stats';
import { openTestSql, SandboxClient, sandboxDbTargets, type TestSql } from './testing';

interface Page { continuationToken: string | null }

for (const target of sandboxDbTargets()) {
  describe(`sandbox request stats [${target}]`, () => {
    let db: TestSql;
    let sandbox: Sandbox;
    let client: SandboxClient;

    beforeAll(async () => {
      db = await openTestSql(target);
      sandbox = createSandbox({ sql: db.sql, preset: 'demo', seed: 1, workers: false });
      await sandbox.start();
      client = new SandboxClient(sandbox);
    });
    afterAll(async () => {
      await sandbox.stop();
      await db.close();
    });

    const stats = async () => (await (await client.call('GET', '/_sandbox/stats')).json()) as RequestStatsView;

    it('counts what it served by route template and by system, and a full paging by its first page', async () => {
      const f = await client.fixtures();
      const [device, other] = f.approvals[0]!.deviceIds as [string, string];
      await client.apiKey(0); // token and key first, so the reset below leaves only the reads
      expect((await client.call('DELETE', '/_sandbox/stats')).status).toBe(204);
      const reset = await stats();
      expect(reset.total).toBe(0);

      // Every page of one system's reservations, 20 at a time.
      let pages = 0;
      let token: string | null = null;
      do {
        const query: string = token ? `&continuationToken=${encodeURIComponent(token)}` : '';
        const response = await client.v1('GET', `/v1/reservations/${device}/all?pageSize=20${query}`);
        expect(response.status).toBe(200);
        token = ((await response.json()) as Page).continuationToken;
        pages += 1;
      } while (token);
      expect(pages).toBeGreaterThan(2);
      await client.v1('GET', `/v1/reservations/resources/${other}/all`);
      await client.v1('GET', '/v1/reservations/users/apartment/1001');
      // A refusal counts too, as an error.
      await client.call('GET', `/v1/usergroups/${device}/all`);

      const seen = await stats();
      const list = 'GET /v1/reservations/{deviceId}/all';
      expect(seen.total).toBe(pages + 3);
      expect(seen.byRoute[list]).toEqual({ requests: pages, firstPages: 1, errors: 0 });
      expect(seen.byRoute['GET /v1/reservations/resources/{deviceId}/all']).toEqual({ requests: 1, firstPages: 1, errors: 0 });
      expect(seen.byRoute['GET /v1/reservations/users/apartment/{apartmentId}']).toEqual({ requests: 1, firstPages: 0, errors: 0 });
      expect(seen.byRoute['GET /v1/usergroups/{deviceId}/all']).toEqual({ requests: 1, firstPages: 1, errors: 1 });
      expect(seen.byDevice[device]).toEqual({
        requests: pages + 1,
        byRoute: { [list]: { requests: pages, firstPages: 1, errors: 0 }, 'GET /v1/usergroups/{deviceId}/all': { requests: 1, firstPages: 1, errors: 1 } },
      });
      expect(seen.byDevice[other]?.requests).toBe(1);
      // The lookup names no system.
      expect(Object.keys(seen.byDevice).sort()).toEqual([device, other].sort());
    });

    it('counts the token endpoint and unknown routes, never its own control routes, and starts again on DELETE', async () => {
      const f = await client.fixtures();
      await client.call('DELETE', '/_sandbox/stats');
      await client.requestToken({ grant_type: 'client_credentials', client_id: f.clientId, client_secret: f.clientSecret, scope: f.scope });
      await client.v1('GET', '/v1/nothing/here');
      await client.call('GET', '/_sandbox/fixtures');
      const seen = await stats();
      expect(seen.byRoute[`POST /{tenant}/oauth2/v2.0/token`]?.requests).toBe(1);
      expect(seen.byRoute['GET (unmatched)']).toEqual({ requests: 1, firstPages: 0, errors: 1 });
      expect(seen.total).toBe(2);
      const before = Date.parse(seen.since);
      await client.call('DELETE', '/_sandbox/stats');
      const again = await stats();
      expect(again).toMatchObject({ total: 0, byRoute: {}, byDevice: {} });
      expect(Date.parse(again.since)).toBeGreaterThanOrEqual(before);
    });
  });
}

describe('RequestStats', () => {
  it('counts ids past the first thousand systems together, so any id sent cannot grow it without bound', () => {
    const stats = new RequestStats(() => new Date(0));
    for (let i = 0; i < STATS_MAX_DEVICES + 5; i += 1) stats.record({ template: 'GET /v1/usergroups/{deviceId}/all', deviceId: `d-${i}`, firstPage: true, status: 403 });
    const view = stats.view();
    expect(Object.keys(view.byDevice)).toHaveLength(STATS_MAX_DEVICES + 1);
    expect(view.byDevice[OTHER_DEVICES]?.requests).toBe(5);
    expect(view.total).toBe(STATS_MAX_DEVICES + 5);
  });
});
