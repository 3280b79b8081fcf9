import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './sandbox';
import { openTestSql, SandboxClient, sandboxDbTargets, type TestSql } from './testing';

interface Page { reservations: { id: string; deviceId: string }[]; continuationToken: string | null }

for (const target of sandboxDbTargets()) {
  describe(`sandbox reads and credentials [${target}]`, () => {
    let db: TestSql;
    let sandbox: Sandbox;
    let client: SandboxClient;
    let clock = new Date('2026-11-25T10:00:00Z');

    beforeAll(async () => {
      db = await openTestSql(target);
      sandbox = createSandbox({ sql: db.sql, preset: 'demo', seed: 1, workers: false, now: () => clock });
      await sandbox.start();
      client = new SandboxClient(sandbox);
    });
    afterAll(async () => {
      await sandbox.stop();
      await db.close();
    });

    const device = async (approval = 0) => (await client.fixtures()).approvals[approval]!.deviceIds[0]!;

    describe('token endpoint', () => {
      it('issues a Bearer JWT with expires_in', async () => {
        const f = await client.fixtures();
        const response = await client.requestToken({ grant_type: 'client_credentials', client_id: f.clientId, client_secret: f.clientSecret, scope: f.scope });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { access_token: string; token_type: string; expires_in: number };
        expect(body.token_type).toBe('Bearer');
        expect(body.expires_in).toBe(3600);
        expect(body.access_token.split('.')).toHaveLength(3);
      });
      it.each([
        ['a wrong secret', { client_secret: 'nope' }, 401, 'invalid_client'],
        ['an unknown client', { client_id: '00000000-0000-4000-8000-000000000000' }, 401, 'invalid_client'],
        ['a wrong scope', { scope: 'api://other/.default' }, 400, 'invalid_scope'],
        ['another grant type', { grant_type: 'password' }, 400, 'unsupported_grant_type'],
        ['a missing scope', { scope: undefined }, 400, 'invalid_request'],
      ] as const)('refuses %s with RFC 6749 errors', async (_, change, status, error) => {
        const f = await client.fixtures();
        const form: Record<string, string | undefined> = { grant_type: 'client_credentials', client_id: f.clientId, client_secret: f.clientSecret, scope: f.scope, ...change };
        const response = await client.requestToken(Object.fromEntries(Object.entries(form).filter(([, v]) => v !== undefined)) as Record<string, string>);
        expect(response.status).toBe(status);
        expect(((await response.json()) as { error: string }).error).toBe(error);
      });
      it('refuses a JSON body and an unknown tenant', async () => {
        const f = await client.fixtures();
        const json = await client.call('POST', f.tokenPath, { json: { grant_type: 'client_credentials' } });
        expect(json.status).toBe(400);
        expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
        const tenant = await client.call('POST', '/other-tenant/oauth2/v2.0/token', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
        expect(tenant.status).toBe(400);
      });
      it('also accepts the client credentials in an HTTP Basic header', async () => {
        const f = await client.fixtures();
        const basic = Buffer.from(`${encodeURIComponent(f.clientId)}:${encodeURIComponent(f.clientSecret)}`).toString('base64');
        const response = await client.call('POST', f.tokenPath, {
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
          body: new URLSearchParams({ grant_type: 'client_credentials', scope: f.scope }).toString(),
        });
        expect(response.status).toBe(200);
      });
      it('honours a configured lifetime', async () => {
        const short = createSandbox({ sql: db.sql, tokenTtlSeconds: 600, workers: false, now: () => clock });
        const other = new SandboxClient(short);
        const f = await other.fixtures();
        const response = await other.requestToken({ grant_type: 'client_credentials', client_id: f.clientId, client_secret: f.clientSecret, scope: f.scope });
        expect(((await response.json()) as { expires_in: number }).expires_in).toBe(600);
      });
    });

    describe('credentials on /v1', () => {
      it('answers 401 with WWW-Authenticate without a token, with a garbage one, an expired one, or one for another audience', async () => {
        const key = await client.apiKey();
        const path = `/v1/reservations/${await device()}/all`;
        const none = await client.call('GET', path, { headers: { 'x-api-key': key } });
        expect(none.status).toBe(401);
        expect(none.headers.get('www-authenticate')).toContain('invalid_token');
        expect(none.headers.get('content-type')).toBe('application/problem+json');
        const garbage = await client.call('GET', path, { headers: { 'x-api-key': key, authorization: 'Bearer abc.def.ghi' } });
        expect(garbage.status).toBe(401);

        const token = await client.token();
        clock = new Date(clock.getTime() + 3601_000);
        try {
          const expired = await client.call('GET', path, { headers: { 'x-api-key': key, authorization: `Bearer ${token}` } });
          expect(expired.status).toBe(401);
          expect(((await expired.json()) as { detail: string }).detail).toMatch(/expired/);
        } finally {
          clock = new Date('2026-11-25T10:00:00Z');
        }

        const { rows } = await db.sql.query<{ value: string }>(`SELECT value FROM sandbox.meta WHERE key = 'signing_key'`);
        const f = await client.fixtures();
        const wrongAudience = await new SignJWT({})
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(`https://login.sandbox.invalid/${f.tenantId}/v2.0`)
          .setAudience('api://someone-else')
          .setIssuedAt(Math.floor(clock.getTime() / 1000))
          .setExpirationTime(Math.floor(clock.getTime() / 1000) + 600)
          .sign(Buffer.from(rows[0]!.value, 'base64url'));
        const aud = await client.call('GET', path, { headers: { 'x-api-key': key, authorization: `Bearer ${wrongAudience}` } });
        expect(aud.status).toBe(401);
        const ok = await client.call('GET', path, { headers: { 'x-api-key': key, authorization: `Bearer ${token}` } });
        expect(ok.status).toBe(200);
      });

      it('answers 403 without a key, with an unknown key, for a system outside the key and for a system that does not exist', async () => {
        const auth = { authorization: `Bearer ${await client.token()}` };
        const path = `/v1/reservations/${await device()}/all`;
        expect((await client.call('GET', path, { headers: auth })).status).toBe(403);
        expect((await client.call('GET', path, { headers: { ...auth, 'x-api-key': 'sbx_forged' } })).status).toBe(403);
        const otherKey = await client.apiKey(1);
        for (const p of ['/v1/reservations/%s/all', '/v1/reservations/resources/%s/all', '/v1/reservations/timeschedules/%s/all', '/v1/usergroups/%s/all', '/v1/reservations/users/fetch/%s']) {
          expect((await client.call('GET', p.replace('%s', await device(0)), { headers: { ...auth, 'x-api-key': otherKey } })).status).toBe(403);
        }
        const missing = await client.call('GET', '/v1/reservations/00000000-0000-4000-8000-000000000000/all', { headers: { ...auth, 'x-api-key': otherKey } });
        expect(missing.status).toBe(403);
      });

      it('generates API keys with a token only, stores them hashed, and 404s an unknown approval', async () => {
        const f = await client.fixtures();
        expect((await client.call('GET', `/v1/apikey/generate/${f.approvals[0]!.approvalId}`)).status).toBe(401);
        const auth = { authorization: `Bearer ${await client.token()}` };
        expect((await client.call('GET', '/v1/apikey/generate/unknown-approval', { headers: auth })).status).toBe(404);
        const response = await client.call('GET', `/v1/apikey/generate/${f.approvals[0]!.approvalId}`, { headers: auth });
        const body = (await response.json()) as { apiKey: string; deviceIds: string[] };
        expect(body.deviceIds).toEqual(f.approvals[0]!.deviceIds);
        const { rows } = await db.sql.query<{ key_hash: string }>(`SELECT key_hash FROM sandbox.api_keys`);
        expect(rows.some((r) => r.key_hash.includes(body.apiKey))).toBe(false);
        expect(rows.length).toBeGreaterThan(0);
      });
    });

    describe('paging', () => {
      it('defaults to 50, allows 100, refuses 0, 101 and non-numbers', async () => {
        const base = `/v1/reservations/${await device()}/all`;
        expect(((await (await client.v1('GET', base)).json()) as Page).reservations).toHaveLength(50);
        expect(((await (await client.v1('GET', `${base}?pageSize=100`)).json()) as Page).reservations).toHaveLength(100);
        for (const bad of ['0', '101', 'abc', '-1', '1.5']) {
          const response = await client.v1('GET', `${base}?pageSize=${bad}`);
          expect(response.status).toBe(400);
          expect(response.headers.get('content-type')).toBe('application/problem+json');
        }
      });

      it('walks every page once, with null at the end, even while reservations are added', async () => {
        const deviceId = await device();
        const { rows } = await db.sql.query<{ id: string }>(`SELECT id FROM sandbox.reservations WHERE device_id = $1`, [deviceId]);
        const seen: string[] = [];
        let token: string | null = null;
        let pages = 0;
        do {
          const query: string = token ? `&continuationToken=${encodeURIComponent(token)}` : '';
          const page = (await (await client.v1('GET', `/v1/reservations/${deviceId}/all?pageSize=97${query}`)).json()) as Page;
          seen.push(...page.reservations.map((r) => r.id));
          token = page.continuationToken;
          if (pages === 2) {
            // A reservation added mid-walk (a past week's slot) must not shift the pages.
            await db.sql.query(
              `INSERT INTO sandbox.reservations (id, device_id, resource_id, owner_type, status, start_time, end_time)
               SELECT gen_random_uuid(), device_id, id, 'Service', 'Unused', '2026-01-05T06:00Z', '2026-01-05T09:00Z' FROM sandbox.resources WHERE device_id = $1 LIMIT 1`,
              [deviceId],
            );
          }
          pages++;
        } while (token !== null);
        expect(new Set(seen).size).toBe(seen.length);
        const expected = rows.map((r) => r.id);
        expect(expected.every((id) => seen.includes(id))).toBe(true);
        expect(seen.length).toBe(expected.length + 1);
        expect(pages).toBe(Math.ceil(seen.length / 97));
      });

      it('refuses a tampered, forged or foreign continuation token', async () => {
        const deviceId = await device();
        const first = (await (await client.v1('GET', `/v1/reservations/${deviceId}/all?pageSize=5`)).json()) as Page;
        const token = first.continuationToken!;
        const [payload, mac] = token.split('.');
        const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), a: 1 })).toString('base64url');
        for (const bad of [`${altered}.${mac}`, 'garbage', `${payload}.AAAA`, `${payload}`]) {
          expect((await client.v1('GET', `/v1/reservations/${deviceId}/all?continuationToken=${encodeURIComponent(bad)}`)).status).toBe(400);
        }
        // A token of one list is not valid for another list or system.
        expect((await client.v1('GET', `/v1/usergroups/${deviceId}/all?continuationToken=${encodeURIComponent(token)}`)).status).toBe(400);
        const second = (await client.fixtures()).approvals[0]!.deviceIds[1]!;
        expect((await client.v1('GET', `/v1/reservations/${second}/all?continuationToken=${encodeURIComponent(token)}`)).status).toBe(400);
      });

      it('pages user groups, resources and time schedules with their field names', async () => {
        const deviceId = await device();
        const groups = (await (await client.v1('GET', `/v1/usergroups/${deviceId}/all`)).json()) as { userGroups: { apartmentId: string; referenceId: string; deviceId: string }[]; continuationToken: string | null };
        expect(groups.userGroups).toHaveLength(50);
        expect(groups.continuationToken).not.toBeNull();
        const resources = (await (await client.v1('GET', `/v1/reservations/resources/${deviceId}/all`)).json()) as { resources: { timeScheduleId: string }[]; continuationToken: string | null };
        expect(resources.continuationToken).toBeNull();
        const schedules = (await (await client.v1('GET', `/v1/reservations/timeschedules/${deviceId}/all`)).json()) as { timeSchedules: { id: string; scheduleType: string; schedule: number[][][] }[] };
        expect(schedules.timeSchedules.every((s) => s.scheduleType === 'Week' && s.schedule.length === 7)).toBe(true);
        for (const r of resources.resources) expect(schedules.timeSchedules.map((s) => s.id)).toContain(r.timeScheduleId);
      });
    });

    describe('user lookups', () => {
      type Users = { userAccounts: { userId: string; deviceId: string; userGroupId: string | null; reservationResources?: string[] }[] };
      it('finds residents by reference id, e-mail (any case, with +) and apartment (with space or slash)', async () => {
        const f = await client.fixtures();
        const covered = new Set(f.approvals[0]!.deviceIds);
        const residents = f.residents.filter((r) => covered.has(r.deviceId));
        const plus = residents.find((r) => r.email.includes('+'))!;
        const upper = residents.find((r) => /[A-Z]/.test(r.email))!;
        const spaced = residents.find((r) => r.apartmentId.includes(' '))!;
        for (const [path, who] of [
          [`/v1/reservations/users/email/${encodeURIComponent(plus.email)}`, plus],
          [`/v1/reservations/users/email/${encodeURIComponent(upper.email.toLowerCase())}`, upper],
          [`/v1/reservations/users/apartment/${encodeURIComponent(spaced.apartmentId)}`, spaced],
          [`/v1/reservations/users/reference/${encodeURIComponent(plus.referenceId)}`, plus],
        ] as const) {
          const body = (await (await client.v1('GET', path)).json()) as Users;
          const found = body.userAccounts.find((u) => u.userId === who.userId);
          expect(found, path).toBeDefined();
          expect(found!.reservationResources).toEqual(who.resourceIds);
          expect(body.userAccounts.every((u) => covered.has(u.deviceId))).toBe(true);
        }
        const slashed = f.residents.find((r) => r.apartmentId.includes('/'))!;
        const approval = f.approvals.findIndex((a) => a.deviceIds.includes(slashed.deviceId));
        const bySlash = (await (await client.v1('GET', `/v1/reservations/users/apartment/${encodeURIComponent(slashed.apartmentId)}`, { approval })).json()) as Users;
        expect(bySlash.userAccounts.map((u) => u.userId)).toContain(slashed.userId);
      });

      it('omits resources when includeReservationResources=false and refuses other values', async () => {
        const resident = (await client.fixtures()).residents[0]!;
        const body = (await (await client.v1('GET', `/v1/reservations/users/reference/${encodeURIComponent(resident.referenceId)}?includeReservationResources=false`)).json()) as Users;
        expect(body.userAccounts.length).toBeGreaterThan(0);
        expect(body.userAccounts.every((u) => u.reservationResources === undefined)).toBe(true);
        expect((await client.v1('GET', `/v1/reservations/users/reference/x?includeReservationResources=maybe`)).status).toBe(400);
      });

      it('never reveals users of systems outside the key; unknown keys give an empty list', async () => {
        const f = await client.fixtures();
        const outside = f.residents.find((r) => !f.approvals[0]!.deviceIds.includes(r.deviceId))!;
        const body = (await (await client.v1('GET', `/v1/reservations/users/email/${encodeURIComponent(outside.email)}`)).json()) as Users;
        expect(body.userAccounts).toEqual([]);
        expect((await (await client.v1('GET', `/v1/reservations/users/apartment/no-such-apartment`)).json())).toEqual({ userAccounts: [] });
        expect((await client.v1('GET', `/v1/reservations/users/${outside.userId}/reservations`)).status).toBe(404);
      });

      it('lists all users of a system without resources, and a user\'s reservations as a bare array', async () => {
        const f = await client.fixtures();
        const deviceId = await device();
        const all = (await (await client.v1('GET', `/v1/reservations/users/fetch/${deviceId}`)).json()) as Users;
        expect(all.userAccounts.length).toBeGreaterThan(40);
        expect(all.userAccounts.some((u) => u.userGroupId === null)).toBe(true);
        expect(all.userAccounts.every((u) => u.reservationResources === undefined)).toBe(true);
        const resident = f.residents.find((r) => r.deviceId === deviceId)!;
        const list = (await (await client.v1('GET', `/v1/reservations/users/${resident.userId}/reservations`)).json()) as { userId: string }[];
        expect(Array.isArray(list)).toBe(true);
        expect(list.every((r) => r.userId === resident.userId)).toBe(true);
      });
    });

    it('answers 404 problem+json for unknown routes and 400 for a malformed system id', async () => {
      const unknown = await client.v1('GET', '/v1/nothing/here');
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toBe('application/problem+json');
      expect((await client.v1('GET', '/v1/reservations/not-a-uuid/all')).status).toBe(400);
      expect((await client.call('GET', '/elsewhere')).status).toBe(404);
    });
  });
}
