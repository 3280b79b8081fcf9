import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs } from './outbox';
import type { ReservationResultEvent } from './processor';
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox';
import { openTestSql, SandboxClient, sandboxDbTargets, type TestSql } from './testing';

interface Delivery { headers: Record<string, string>; body: string; event: ReservationResultEvent }

/** A real HTTP webhook receiver whose answers the test controls. */
class Receiver {
  deliveries: Delivery[] = [];
  failNext = 0;
  down = false;
  private server!: Server;
  url = '';

  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        this.deliveries.push({ headers, body, event: JSON.parse(body) as ReservationResultEvent });
        if (this.down || this.failNext > 0) {
          this.failNext = Math.max(0, this.failNext - 1);
          res.statusCode = 500;
        } else res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
  events(correlationId: string) {
    return this.deliveries.filter((d) => d.event.correlationId === correlationId);
  }
}

const NOW = new Date('2026-11-25T10:00:00Z'); // a Wednesday

for (const target of sandboxDbTargets()) {
  describe(`sandbox processing and webhooks [${target}]`, () => {
    let db: TestSql;
    let sandbox: Sandbox;
    let client: SandboxClient;
    const receiver = new Receiver();
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    let clock = NOW;
    const options = (): SandboxOptions => ({ sql: db.sql, preset: 'tiny', seed: 1, workers: false, now: () => clock, webhookRetryScheduleMs: [0] });

    beforeAll(async () => {
      db = await openTestSql(target);
      await receiver.listen();
      sandbox = createSandbox({ ...options(), webhooks: [{ url: receiver.url, secret }] });
      await sandbox.start();
      client = new SandboxClient(sandbox);
      await client.token();
      await client.apiKey(0);
      await client.apiKey(1);
    });
    afterAll(async () => {
      await sandbox.stop();
      await receiver.close();
      await db.close();
    });

    async function fixture() {
      const f = await client.fixtures();
      const sys0 = f.approvals[0]!.deviceIds[0]!;
      const residents = f.residents.filter((r) => r.deviceId === sys0);
      const { rows } = await db.sql.query<{ id: string; name: string }>(`SELECT id, name FROM sandbox.resources WHERE device_id = $1 ORDER BY seq`, [sys0]);
      const laundry = rows.find((r) => r.name === 'Tvättstuga 1')!.id;
      const irregular = rows.find((r) => r.name === 'Tvättstuga Gården')!.id;
      const byGroup = [...new Set(residents.map((r) => r.userGroupId))].map((g) => residents.filter((r) => r.userGroupId === g));
      return { f, sys0, residents, laundry, irregular, byGroup };
    }

    async function book(userId: string, resourceId: string, startTime: string, endTime: string, approval = 0): Promise<string> {
      const response = await client.v1('POST', '/v1/reservations', { json: { userId, resourceId, startTime, endTime }, approval });
      expect(response.status).toBe(202);
      const body = (await response.json()) as { correlationId: string; timestamp: string };
      expect(body.timestamp).toBe(clock.toISOString());
      return body.correlationId;
    }

    async function outcome(correlationId: string) {
      await sandbox.drain();
      const events = receiver.events(correlationId);
      expect(events.length, `event for ${correlationId}`).toBeGreaterThan(0);
      return events[0]!.event.eventData;
    }

    it('answers 202 only for a well-formed body, else 400 problem+json', async () => {
      const { residents, laundry } = await fixture();
      const good = { userId: residents[0]!.userId, resourceId: laundry, startTime: '2026-11-26T06:00Z', endTime: '2026-11-26T09:00Z' };
      const bad: unknown[] = [
        { ...good, userId: undefined },
        { ...good, resourceId: 'not-a-uuid' },
        { ...good, startTime: '2026-11-26T06:00:00Z' },
        { ...good, endTime: '2026-11-26 09:00' },
        { ...good, endTime: '2026-11-26T06:00Z' },
        { ...good, endTime: '2026-11-26T03:00Z' },
        { ...good, extra: 1 },
        'not an object',
      ];
      for (const body of bad) {
        const response = await client.v1('POST', '/v1/reservations', { json: body });
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        expect(((await response.json()) as { detail: string }).detail.length).toBeGreaterThan(5);
      }
      const { rows } = await db.sql.query(`SELECT 1 FROM sandbox.requests`);
      expect(rows).toHaveLength(0);
      expect((await client.v1('DELETE', '/v1/reservations/not-a-uuid')).status).toBe(400);
    });

    it('books a free slot, delivers a verifiable signed reservationResult, and lists the reservation', async () => {
      const { residents, laundry, sys0 } = await fixture();
      const user = residents[0]!;
      const id = await book(user.userId, laundry, '2026-11-26T06:00Z', '2026-11-26T09:00Z');
      const data = await outcome(id);
      expect(data).toMatchObject({ succeded: true, errorCode: null, errorDescription: null, data: { operation: 'create' } });
      const stored = (await (await client.call('GET', `/_sandbox/requests/${id}`)).json()) as { operation: string; event: ReservationResultEvent };
      expect(stored.operation).toBe('create');
      expect(stored.event.eventData).toEqual(data);
      const delivery = receiver.events(id)[0]!;
      expect(delivery.headers['webhook-id']).toMatch(/^msg_/);
      const verified = new Webhook(secret).verify(delivery.body, delivery.headers) as ReservationResultEvent;
      expect(verified.eventType).toBe('reservationResult');
      expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(delivery.body, delivery.headers)).toThrow();
      const list = (await (await client.v1('GET', `/v1/reservations/users/${user.userId}/reservations`)).json()) as { id: string; startTime: string; endTime: string; ownerType: string; ownerId: string; status: string; deviceId: string }[];
      const created = list.find((r) => r.id === data.data!.reservationId)!;
      expect(created).toMatchObject({ startTime: '2026-11-26T06:00:00Z', endTime: '2026-11-26T09:00:00Z', ownerType: 'Group', ownerId: user.userGroupId, status: 'Unused', deviceId: sys0 });
    });

    it('applies each booking rule with its error code', async () => {
      const { laundry, irregular, byGroup, f } = await fixture();
      const [g1, g2, g3] = [byGroup[1]!, byGroup[2]!, byGroup[3]!];
      const barred = byGroup[0]![1]!; // excluded from the irregular room in the tiny preset
      expect(barred.resourceIds).not.toContain(irregular);
      const run = async (label: string, p: Promise<string>, code: string | null) => {
        const data = await outcome(await p);
        expect(data.errorCode, label).toBe(code);
        expect(data.succeded, label).toBe(code === null);
        if (code) expect(data.errorDescription, label).toBeTruthy();
      };
      await run('two consecutive slots', book(g1[0]!.userId, laundry, '2026-11-26T09:00Z', '2026-11-26T15:00Z'), null);
      await run('taken slot', book(g2[0]!.userId, laundry, '2026-11-26T06:00Z', '2026-11-26T09:00Z'), 'SlotUnavailable');
      await run('overlapping run', book(g2[0]!.userId, laundry, '2026-11-26T12:00Z', '2026-11-26T15:00Z'), 'SlotUnavailable');
      await run('off the slot boundaries', book(g3[0]!.userId, laundry, '2026-11-26T07:00Z', '2026-11-26T10:00Z'), 'InvalidTimeSlot');
      await run('end off the boundaries', book(g3[0]!.userId, laundry, '2026-11-27T06:00Z', '2026-11-27T08:00Z'), 'InvalidTimeSlot');
      await run('already started', book(g3[0]!.userId, laundry, '2026-11-25T09:00Z', '2026-11-25T12:00Z'), 'InPast');
      await run('yesterday', book(g3[0]!.userId, laundry, '2026-11-24T06:00Z', '2026-11-24T09:00Z'), 'InPast');
      await run('beyond 28 days', book(g3[0]!.userId, laundry, '2026-12-24T06:00Z', '2026-12-24T09:00Z'), 'OutsideBookingWindow');
      await run('unknown user', book(randomUUID(), laundry, '2026-11-27T06:00Z', '2026-11-27T09:00Z'), 'UserNotFound');
      const otherSystemUser = f.residents.find((r) => r.deviceId === f.approvals[1]!.deviceIds[0])!;
      await run('user of another system', book(otherSystemUser.userId, laundry, '2026-11-27T06:00Z', '2026-11-27T09:00Z'), 'UserNotFound');
      await run('unknown resource', book(g3[0]!.userId, randomUUID(), '2026-11-27T06:00Z', '2026-11-27T09:00Z'), 'ResourceNotFound');
      await run('resource outside the key', book(otherSystemUser.userId, otherSystemUser.resourceIds[0]!, '2026-11-27T06:00Z', '2026-11-27T09:00Z', 0), 'ResourceNotFound');
      await run('not authorized', book(barred.userId, irregular, '2026-11-28T08:00Z', '2026-11-28T11:00Z'), 'UserNotAuthorized');
      // Quota: two future bookings per apartment and resource (g1 already has one on the laundry).
      await run('second of the apartment', book(g1[1]!.userId, laundry, '2026-11-27T06:00Z', '2026-11-27T09:00Z'), null);
      await run('third of the apartment', book(g1[0]!.userId, laundry, '2026-11-28T06:00Z', '2026-11-28T09:00Z'), 'QuotaExceeded');
      await run('same apartment, other resource', book(g1[0]!.userId, irregular, '2026-11-28T08:00Z', '2026-11-28T11:00Z'), null);
      await run('slot past midnight (Mon 21:00 → Tue 01:00)', book(g3[0]!.userId, irregular, '2026-11-30T21:00Z', '2026-12-01T01:00Z'), null);
    });

    it('gives exactly one success for two simultaneous requests for one slot, across two workers', async () => {
      const { laundry, byGroup } = await fixture();
      const second = createSandbox(options());
      const [a, b] = await Promise.all([
        book(byGroup[2]![0]!.userId, laundry, '2026-11-27T09:00Z', '2026-11-27T12:00Z'),
        book(byGroup[3]![0]!.userId, laundry, '2026-11-27T09:00Z', '2026-11-27T12:00Z'),
      ]);
      await Promise.all([sandbox.drain(), second.drain()]);
      await sandbox.drain();
      const outcomes = [receiver.events(a)[0]!.event.eventData, receiver.events(b)[0]!.event.eventData];
      expect(outcomes.filter((o) => o.succeded)).toHaveLength(1);
      expect(outcomes.filter((o) => o.errorCode === 'SlotUnavailable')).toHaveLength(1);
      const { rows } = await db.sql.query(`SELECT 1 FROM sandbox.reservations WHERE resource_id = $1 AND start_time = '2026-11-27T09:00Z'`, [laundry]);
      expect(rows).toHaveLength(1);
      // Either apartment may win; remove the winner so later tests' quotas do not depend on the race.
      await db.sql.query(`DELETE FROM sandbox.reservations WHERE resource_id = $1 AND start_time = '2026-11-27T09:00Z'`, [laundry]);
    });

    it('applies a system’s booking rules by group of rooms (PUT /_sandbox/rules), and refuses rules it cannot apply', async () => {
      const { laundry, byGroup, sys0 } = await fixture();
      const user = byGroup.at(-1)![0]!;
      const put = (body: unknown, deviceId = sys0) => client.call('PUT', `/_sandbox/rules/${deviceId}`, { json: body });
      const group = { resourceIds: [laundry], perWindow: { count: 1, days: 7 }, daysAhead: 10 };
      expect((await put({ timeZone: 'Europe/Stockholm', groups: [group] })).status).toBe(200);
      expect((await (await client.call('GET', `/_sandbox/rules/${sys0}`)).json()) as unknown).toMatchObject({ timeZone: 'Europe/Stockholm', groups: [{ ...group, maxFuture: null }] });
      try {
        const first = await outcome(await book(user.userId, laundry, '2026-12-03T06:00Z', '2026-12-03T09:00Z'));
        expect(first.succeded).toBe(true);
        // Once in 7 days: the 5th is within 7 days of the 3rd; the 6th December is 11 days ahead.
        expect(await outcome(await book(user.userId, laundry, '2026-12-05T06:00Z', '2026-12-05T09:00Z'))).toMatchObject({ succeded: false, errorCode: 'QuotaExceeded' });
        expect(await outcome(await book(user.userId, laundry, '2026-12-06T06:00Z', '2026-12-06T09:00Z'))).toMatchObject({ succeded: false, errorCode: 'OutsideBookingWindow' });
        for (const bad of [
          { timeZone: 'Mars/Olympus', groups: [] },
          { timeZone: 'Europe/Stockholm', groups: [group, group] },
          { timeZone: 'Europe/Stockholm', groups: [{ ...group, perWindow: { count: 0, days: 7 } }] },
          { timeZone: 'Europe/Stockholm', groups: [{ ...group, resourceIds: ['not-a-uuid'] }] },
        ]) {
          const response = await put(bad);
          expect(response.status, JSON.stringify(bad)).toBe(400);
        }
        expect((await put(group, 'not-a-uuid')).status).toBe(400);
      } finally {
        expect((await put(null)).status).toBe(200);
        await db.sql.query(`DELETE FROM sandbox.reservations WHERE resource_id = $1 AND start_time >= '2026-12-03T00:00Z' AND start_time < '2026-12-07T00:00Z'`, [laundry]);
      }
      // Without rules the room is back to the quota per room: the 5th is accepted.
      expect((await outcome(await book(user.userId, laundry, '2026-12-05T06:00Z', '2026-12-05T09:00Z'))).succeded).toBe(true);
      await db.sql.query(`DELETE FROM sandbox.reservations WHERE resource_id = $1 AND start_time = '2026-12-05T06:00Z'`, [laundry]);
    });

    it('cancels only future reservations owned by a user or group', async () => {
      const { laundry, byGroup, sys0, f } = await fixture();
      const user = byGroup[2]![1]!;
      const created = await outcome(await book(user.userId, laundry, '2026-12-01T06:00Z', '2026-12-01T09:00Z'));
      const reservationId = created.data!.reservationId;
      const cancel = async (id: string, approval = 0) => {
        const response = await client.v1('DELETE', `/v1/reservations/${id}`, { approval });
        expect(response.status).toBe(202);
        return outcome(((await response.json()) as { correlationId: string }).correlationId);
      };
      expect(await cancel(reservationId)).toMatchObject({ succeded: true, data: { reservationId, operation: 'cancel' } });
      const { rows: gone } = await db.sql.query(`SELECT 1 FROM sandbox.reservations WHERE id = $1`, [reservationId]);
      expect(gone).toHaveLength(0);
      expect((await cancel(reservationId)).errorCode).toBe('ReservationNotFound');
      const { rows: past } = await db.sql.query<{ id: string }>(`SELECT id FROM sandbox.reservations WHERE device_id = $1 AND end_time < $2 AND owner_type <> 'Service' LIMIT 1`, [sys0, NOW]);
      expect((await cancel(past[0]!.id)).errorCode).toBe('NotCancellable');
      const service = randomUUID();
      await db.sql.query(`INSERT INTO sandbox.reservations (id, device_id, resource_id, owner_type, status, start_time, end_time) VALUES ($1, $2, $3, 'Service', 'Unused', '2026-12-02T06:00Z', '2026-12-02T09:00Z')`, [service, sys0, laundry]);
      expect((await cancel(service)).errorCode).toBe('NotCancellable');
      const { rows: foreign } = await db.sql.query<{ id: string }>(`SELECT id FROM sandbox.reservations WHERE device_id = $1 LIMIT 1`, [f.approvals[1]!.deviceIds[0]]);
      expect((await cancel(foreign[0]!.id, 0)).errorCode).toBe('ReservationNotFound');
    });

    it('retries a failing receiver with the same webhook-id until it answers 2xx', async () => {
      const { laundry, byGroup } = await fixture();
      receiver.failNext = 2;
      const id = await book(byGroup[3]![1]!.userId, laundry, '2026-12-03T06:00Z', '2026-12-03T09:00Z');
      await sandbox.drain();
      await sandbox.drain();
      await sandbox.drain();
      await sandbox.drain();
      const attempts = receiver.events(id);
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
      for (const a of attempts) expect(() => new Webhook(secret).verify(a.body, a.headers)).not.toThrow();
      const { rows } = await db.sql.query<{ attempts: number; delivered_at: unknown }>(`SELECT attempts, delivered_at FROM sandbox.outbox WHERE message_id = $1`, [attempts[0]!.headers['webhook-id']]);
      expect(rows[0]).toMatchObject({ attempts: 3 });
      expect(rows[0]!.delivered_at).not.toBeNull();
    });

    it('reports InternalError for a request that fails inside processing, and goes on with the queue', async () => {
      const { laundry, byGroup } = await fixture();
      const approval = (await client.fixtures()).approvals[0]!.approvalId;
      const broken = randomUUID();
      // Written behind the API's back: a payload the handler would have refused.
      await db.sql.query(
        `INSERT INTO sandbox.requests (correlation_id, operation, approval_id, payload, accepted_at) VALUES ($1, 'create', $2, $3, $4)`,
        [broken, approval, JSON.stringify({ userId: 'not-a-uuid', resourceId: laundry, startTime: '2026-12-14T06:00Z', endTime: '2026-12-14T09:00Z' }), clock],
      );
      const next = await book(byGroup[2]![0]!.userId, laundry, '2026-12-14T06:00Z', '2026-12-14T09:00Z');
      expect((await outcome(broken)).errorCode).toBe('InternalError');
      expect((await outcome(next)).succeded).toBe(true);
    });

    it('backs off along the configured schedule with jitter, repeating its last step', () => {
      for (let i = 0; i < 20; i++) {
        const first = backoffMs([1000, 5000], 1);
        expect(first).toBeGreaterThanOrEqual(750);
        expect(first).toBeLessThanOrEqual(1250);
        expect(backoffMs([1000, 5000], 9)).toBeGreaterThanOrEqual(3750);
      }
      expect(backoffMs([1000, 5000], 2, () => 0.5)).toBe(5000);
    });

    it('loses nothing across a restart in the middle of the queue and of the outbox', async () => {
      const { laundry, irregular, byGroup } = await fixture();
      receiver.down = true;
      const early = [
        await book(byGroup[0]![0]!.userId, irregular, '2026-12-05T08:00Z', '2026-12-05T11:00Z'),
        await book(byGroup[2]![0]!.userId, irregular, '2026-12-05T11:00Z', '2026-12-05T14:00Z'),
      ];
      await sandbox.drain(); // processed, but the deliveries failed
      const late = [
        await book(byGroup[3]![0]!.userId, laundry, '2026-12-04T06:00Z', '2026-12-04T09:00Z'),
        await book(byGroup[3]![1]!.userId, irregular, '2026-12-04T06:00Z', '2026-12-04T10:00Z'),
      ];
      await sandbox.stop();
      const before = receiver.deliveries.length;
      const reopened = await db.reopen();
      const restarted = createSandbox({ ...options(), sql: reopened.sql });
      await restarted.start();
      receiver.down = false;
      await restarted.drain();
      for (const id of [...early, ...late]) {
        const events = receiver.deliveries.slice(before).filter((d) => d.event.correlationId === id);
        expect(events, id).toHaveLength(1);
      }
      expect(receiver.events(late[0]!)[0]!.event.eventData, JSON.stringify(receiver.events(late[0]!)[0]!.event.eventData)).toMatchObject({ succeded: true });
      await restarted.stop();
      await reopened.close();
      await sandbox.start();
    });

    it('processes and delivers in the background once started', async () => {
      const { laundry, byGroup } = await fixture();
      const live = createSandbox({ ...options(), workers: true, pollIntervalMs: 20 });
      await live.start();
      try {
        const id = await book(byGroup[2]![1]!.userId, laundry, '2026-12-07T06:00Z', '2026-12-07T09:00Z');
        for (let i = 0; i < 100 && receiver.events(id).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
        expect(receiver.events(id)).toHaveLength(1);
      } finally {
        await live.stop();
      }
    });

    describe('faults', () => {
      const put = (body: unknown) => client.call('PUT', '/_sandbox/faults', { json: body });
      const list = async () => (await client.v1('GET', `/v1/reservations/resources/${(await client.fixtures()).approvals[0]!.deviceIds[0]}/all`)).status;

      it('injects 503s, throttling with Retry-After, counted failures, token outages, latency and hangs; DELETE clears', async () => {
        expect((await put({ errorRate: 1 })).status).toBe(200);
        expect(await list()).toBe(503);
        expect((await put({ throttle: { rate: 1, retryAfterSeconds: 7 } })).status).toBe(200);
        const throttled = await client.v1('GET', `/v1/usergroups/${(await client.fixtures()).approvals[0]!.deviceIds[0]}/all`);
        expect(throttled.status).toBe(429);
        expect(throttled.headers.get('retry-after')).toBe('7');
        await put({ failures: [{ status: 502, times: 2, skip: 1, pathPrefix: '/v1/reservations/resources', method: 'GET' }] });
        expect([await list(), await list(), await list(), await list()]).toEqual([200, 502, 502, 200]);
        await put({ tokenEndpointDown: true });
        const f = await client.fixtures();
        expect((await client.requestToken({ grant_type: 'client_credentials', client_id: f.clientId, client_secret: f.clientSecret, scope: f.scope })).status).toBe(503);
        await put({ latencyMs: 150 });
        let started = Date.now();
        expect(await list()).toBe(200);
        expect(Date.now() - started).toBeGreaterThanOrEqual(140);
        await put({ hang: { ms: 300, pathPrefix: '/v1/reservations/resources' } });
        started = Date.now();
        await list();
        expect(Date.now() - started).toBeGreaterThanOrEqual(290);
        expect((await client.call('DELETE', '/_sandbox/faults')).status).toBe(204);
        started = Date.now();
        expect(await list()).toBe(200);
        expect(Date.now() - started).toBeLessThan(290);
        expect((await put({ errorRate: 2 })).status).toBe(400);
        expect((await put({ nonsense: true })).status).toBe(400);
      });

      it('delays, duplicates and reorders webhook deliveries', async () => {
        const { laundry, byGroup } = await fixture();
        await put({ webhook: { duplicate: true } });
        const dup = await book(byGroup[0]![0]!.userId, laundry, '2026-12-08T06:00Z', '2026-12-08T09:00Z');
        await sandbox.drain();
        const copies = receiver.events(dup);
        expect(copies).toHaveLength(2);
        expect(copies[0]!.headers['webhook-id']).toBe(copies[1]!.headers['webhook-id']);

        await put({ webhook: { reorder: true } });
        const first = await book(byGroup[0]![0]!.userId, laundry, '2026-12-09T06:00Z', '2026-12-09T09:00Z');
        const second = await book(byGroup[0]![0]!.userId, laundry, '2026-12-09T09:00Z', '2026-12-09T12:00Z');
        await sandbox.drain();
        const order = receiver.deliveries.map((d) => d.event.correlationId).filter((c) => c === first || c === second);
        expect(order).toEqual([second, first]);

        await put({ webhook: { delayMs: 60_000 } });
        const delayed = await book(byGroup[1]![0]!.userId, laundry, '2026-12-10T06:00Z', '2026-12-10T09:00Z');
        await sandbox.drain();
        expect(receiver.events(delayed)).toHaveLength(0);
        clock = new Date(NOW.getTime() + 61_000);
        try {
          await sandbox.drain();
          expect(receiver.events(delayed)).toHaveLength(1);
        } finally {
          clock = NOW;
          await client.call('DELETE', '/_sandbox/faults');
        }
      });
    });

    describe('control routes', () => {
      it('adds and removes webhook subscriptions', async () => {
        const other = new Receiver();
        await other.listen();
        try {
          const created = await client.call('POST', '/_sandbox/webhooks', { json: { url: other.url, secret } });
          expect(created.status).toBe(201);
          const { id } = (await created.json()) as { id: string };
          const again = await client.call('POST', '/_sandbox/webhooks', { json: { url: other.url, secret } });
          expect(((await again.json()) as { id: string }).id).toBe(id);
          const { laundry, byGroup } = await fixture();
          const c1 = await book(byGroup[1]![1]!.userId, laundry, '2026-12-11T06:00Z', '2026-12-11T09:00Z');
          await sandbox.drain();
          expect(other.events(c1)).toHaveLength(1);
          expect((await client.call('DELETE', `/_sandbox/webhooks/${id}`)).status).toBe(204);
          expect((await client.call('DELETE', `/_sandbox/webhooks/${id}`)).status).toBe(404);
          const c2 = await book(byGroup[1]![1]!.userId, laundry, '2026-12-12T06:00Z', '2026-12-12T09:00Z');
          await sandbox.drain();
          expect(other.events(c2)).toHaveLength(0);
          expect(receiver.events(c2)).toHaveLength(1);
          expect((await client.call('POST', '/_sandbox/webhooks', { json: { url: 'ftp://x', secret: 'nope' } })).status).toBe(400);
        } finally {
          await other.close();
        }
      });

      it('reloads data with POST /_sandbox/reset, deterministically per seed', async () => {
        const before = await client.fixtures();
        const reset = await client.call('POST', '/_sandbox/reset', { json: { preset: 'tiny', seed: 2 } });
        expect(reset.status).toBe(200);
        const after = (await reset.json()) as typeof before;
        expect(after.systems[0]!.deviceId).not.toBe(before.systems[0]!.deviceId);
        expect(after.clientId).toBe(before.clientId);
        const again = (await (await client.call('POST', '/_sandbox/reset', { json: { preset: 'tiny', seed: 2 } })).json()) as typeof before;
        expect(again.systems).toEqual(after.systems);
        expect(again.residents).toEqual(after.residents);
        expect((await client.call('POST', '/_sandbox/reset', { json: { preset: 'huge' } })).status).toBe(400);

        // A restart without explicit preset/seed keeps the reset data; an explicit one reseeds.
        const keeps = new SandboxClient(createSandbox({ sql: db.sql, workers: false, now: () => clock }));
        expect((await keeps.fixtures()).systems).toEqual(after.systems);
        const explicit = createSandbox(options());
        await explicit.start();
        expect((await new SandboxClient(explicit).fixtures()).systems).toEqual(before.systems);
      });
    });
  });
}
