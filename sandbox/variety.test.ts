import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Faults } from './faults';
import { nodeListener } from './node';
import { createSandbox, type Sandbox } from './sandbox';
import { ODD_TOKEN_PREFIX } from './shapes';
import { openTestSql, SandboxClient, sandboxDbTargets, type TestSql } from './testing';

type Item = Record<string, unknown>;
interface Reservation { id: string; ownerType: string; status: string; startTime: string; endTime: string; userId: string | null }
interface Event { correlationId: string; eventData: Item; timestamp: string; [extra: string]: unknown }

const NOW = new Date('2026-11-25T10:00:00Z'); // a Wednesday
const KNOWN_OWNER_TYPES = ['User', 'Group', 'Service'];
const KNOWN_STATUSES = ['Used', 'Unused'];

/** Collects webhook deliveries. */
class Receiver {
  events: Event[] = [];
  url = '';
  private server!: Server;
  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Event);
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
  of(correlationId: string) {
    return this.events.find((e) => e.correlationId === correlationId);
  }
}

for (const target of sandboxDbTargets()) {
  describe(`sandbox variety switches [${target}]`, () => {
    let readsDb: TestSql;
    let writesDb: TestSql;
    let reads: Sandbox;
    let writes: Sandbox;
    let r: SandboxClient;
    let w: SandboxClient;
    const receiver = new Receiver();

    beforeAll(async () => {
      [readsDb, writesDb] = await Promise.all([openTestSql(target), openTestSql(target)]);
      await receiver.listen();
      reads = createSandbox({ sql: readsDb.sql, preset: 'demo', seed: 1, workers: false, now: () => NOW });
      // A generous quota: every test books its own slot without running into the booking rules.
      writes = createSandbox({
        sql: writesDb.sql, preset: 'tiny', seed: 1, workers: false, now: () => NOW, quotaPerGroup: 1000, webhookRetryScheduleMs: [0],
        webhooks: [{ url: receiver.url, secret: `whsec_${randomBytes(32).toString('base64')}` }],
      });
      await Promise.all([reads.start(), writes.start()]);
      r = new SandboxClient(reads);
      w = new SandboxClient(writes);
    });
    afterAll(async () => {
      await Promise.all([reads.stop(), writes.stop()]);
      await receiver.close();
      await Promise.all([readsDb.close(), writesDb.close()]);
    });

    async function setFaults(client: SandboxClient, faults: Faults): Promise<void> {
      const response = await client.call('PUT', '/_sandbox/faults', { json: faults });
      expect(response.status, await response.clone().text()).toBe(200);
    }
    async function clearFaults(): Promise<void> {
      await r.call('DELETE', '/_sandbox/faults');
      await w.call('DELETE', '/_sandbox/faults');
    }
    const getJson = async <T,>(path: string): Promise<T> => {
      const response = await r.v1('GET', path);
      expect(response.status, path).toBe(200);
      return (await response.json()) as T;
    };
    const device = async () => (await r.fixtures()).approvals[0]!.deviceIds[0]!;

    describe('shapes', () => {
      afterAll(clearFaults);

      it('writes reservation times without seconds, at +01:00, both, or with seven fraction digits, for the same instants', async () => {
        await clearFaults();
        const path = `/v1/reservations/${await device()}/all?pageSize=100`;
        const plain = (await getJson<{ reservations: Reservation[] }>(path)).reservations;
        expect(plain[0]!.startTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        const user = plain.find((x) => x.userId !== null)!.userId!;
        const plainOfUser = await getJson<Reservation[]>(`/v1/reservations/users/${user}/reservations`);
        const cases: [Faults['shapes'], RegExp][] = [
          [{ minuteTimes: true }, /^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/],
          [{ offsetTimes: true }, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+01:00$/],
          [{ minuteTimes: true, offsetTimes: true }, /^\d{4}-\d\d-\d\dT\d\d:\d\d\+01:00$/],
          [{ fractionTimes: true }, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/],
        ];
        for (const [shapes, form] of cases) {
          await setFaults(r, { shapes });
          const shaped = (await getJson<{ reservations: Reservation[] }>(path)).reservations;
          const ofUser = await getJson<Reservation[]>(`/v1/reservations/users/${user}/reservations`);
          for (const [list, before] of [[shaped, plain], [ofUser, plainOfUser]] as const) {
            expect(list.map((x) => x.id)).toEqual(before.map((x) => x.id));
            list.forEach((x, i) => {
              expect(x.startTime, JSON.stringify(shapes)).toMatch(form);
              expect(x.endTime).toMatch(form);
              expect(Date.parse(x.startTime)).toBe(Date.parse(before[i]!.startTime));
              expect(Date.parse(x.endTime)).toBe(Date.parse(before[i]!.endTime));
            });
          }
        }
        expect((await getJson<{ reservations: Reservation[] }>(path)).reservations[0]!.startTime).toMatch(/\.0000000Z$/);
      });

      it('blanks display-only fields on every 3rd item: null, absent or (emptyLabels, every 3rd from the 2nd) empty', async () => {
        const deviceId = await device();
        await clearFaults();
        const plainResources = (await getJson<{ resources: Item[] }>(`/v1/reservations/resources/${deviceId}/all`)).resources;
        const plainGroups = (await getJson<{ userGroups: Item[] }>(`/v1/usergroups/${deviceId}/all`)).userGroups;
        const plainUsers = (await getJson<{ userAccounts: Item[] }>(`/v1/reservations/users/fetch/${deviceId}`)).userAccounts;
        expect(plainResources.length).toBeGreaterThanOrEqual(3);

        await setFaults(r, { shapes: { nullLabels: true } });
        const resources = (await getJson<{ resources: Item[] }>(`/v1/reservations/resources/${deviceId}/all`)).resources;
        expect(resources[2]).toEqual({ ...plainResources[2], name: null, description: null });
        expect(resources[0]).toEqual(plainResources[0]);
        expect(resources[1]).toEqual(plainResources[1]);
        const groups = (await getJson<{ userGroups: Item[] }>(`/v1/usergroups/${deviceId}/all`)).userGroups;
        groups.forEach((g, i) => expect(g).toEqual(i % 3 === 2 ? { ...plainGroups[i], name: null, apartmentId: null, referenceId: null } : plainGroups[i]));
        const users = (await getJson<{ userAccounts: Item[] }>(`/v1/reservations/users/fetch/${deviceId}`)).userAccounts;
        users.forEach((u, i) => expect(u).toEqual(i % 3 === 2 ? { ...plainUsers[i], name: null, email: null } : plainUsers[i]));

        await setFaults(r, { shapes: { missingOptional: true, nullLabels: true } });
        const missing = (await getJson<{ resources: Item[] }>(`/v1/reservations/resources/${deviceId}/all`)).resources;
        expect('description' in missing[2]!).toBe(false);
        expect('name' in missing[2]!).toBe(false);
        expect(missing[2]!.id).toBe(plainResources[2]!.id);
        const missingGroups = (await getJson<{ userGroups: Item[] }>(`/v1/usergroups/${deviceId}/all`)).userGroups;
        expect(Object.keys(missingGroups[5]!).sort()).toEqual(['deviceId', 'id']);

        await setFaults(r, { shapes: { emptyLabels: true } });
        const empty = (await getJson<{ resources: Item[] }>(`/v1/reservations/resources/${deviceId}/all`)).resources;
        expect(empty[1]).toEqual({ ...plainResources[1], name: '', description: '' });
        expect(empty[2]).toEqual(plainResources[2]);

        // The lookups too (an apartment with at least three users, if the seed has one; else users/fetch above covers it).
        const apartment = (await r.fixtures()).residents.find((x) => x.deviceId === deviceId)!.apartmentId;
        await setFaults(r, { shapes: { nullLabels: true } });
        const byApartment = (await getJson<{ userAccounts: Item[] }>(`/v1/reservations/users/apartment/${encodeURIComponent(apartment)}`)).userAccounts;
        byApartment.forEach((u, i) => expect(u.name === null && u.email === null).toBe(i % 3 === 2));
      });

      it('sends unknown ownerType and status on every 5th reservation, and an unknown scheduleType on every 2nd schedule', async () => {
        const deviceId = await device();
        await setFaults(r, { shapes: { unknownEnums: true, unknownScheduleType: true } });
        const list = (await getJson<{ reservations: Reservation[] }>(`/v1/reservations/${deviceId}/all?pageSize=20`)).reservations;
        list.forEach((x, i) => {
          if (i % 5 === 4) expect([x.ownerType, x.status]).toEqual(['Facility', 'Released']);
          else expect(KNOWN_OWNER_TYPES.includes(x.ownerType) && KNOWN_STATUSES.includes(x.status)).toBe(true);
        });
        const { rows } = await readsDb.sql.query<{ user_id: string }>(
          `SELECT user_id FROM sandbox.reservations WHERE user_id IS NOT NULL GROUP BY user_id HAVING count(*) >= 5 LIMIT 1`,
        );
        const ofUser = await getJson<Reservation[]>(`/v1/reservations/users/${rows[0]!.user_id}/reservations`);
        expect(ofUser[4]).toMatchObject({ ownerType: 'Facility', status: 'Released' });
        expect(ofUser[3]!.ownerType).not.toBe('Facility');
        const schedules = (await getJson<{ timeSchedules: Item[] }>(`/v1/reservations/timeschedules/${deviceId}/all`)).timeSchedules;
        expect(schedules.length).toBeGreaterThanOrEqual(2);
        expect(schedules[0]!.scheduleType).toBe('Week');
        expect(schedules[1]!.scheduleType).toBe('Custom');
        expect(Array.isArray(schedules[1]!.schedule)).toBe(false);
      });

      it('adds unknown members to every item and envelope', async () => {
        const deviceId = await device();
        await setFaults(r, { shapes: { extraFields: true } });
        const extra = { etag: expect.stringMatching(/^W\/"[0-9a-f]+"$/) as unknown, _links: { self: { href: expect.any(String) as unknown } }, tenantRef: null };
        for (const [path, field] of [
          [`/v1/reservations/${deviceId}/all?pageSize=5`, 'reservations'],
          [`/v1/reservations/resources/${deviceId}/all`, 'resources'],
          [`/v1/reservations/timeschedules/${deviceId}/all`, 'timeSchedules'],
          [`/v1/usergroups/${deviceId}/all?pageSize=5`, 'userGroups'],
          [`/v1/reservations/users/fetch/${deviceId}`, 'userAccounts'],
        ] as const) {
          const body = await getJson<Item>(path);
          expect(body, path).toMatchObject(extra);
          for (const item of body[field] as Item[]) expect(item).toMatchObject(extra);
        }
      });

      it('reverses the items of a page', async () => {
        const path = `/v1/reservations/${await device()}/all?pageSize=10`;
        await clearFaults();
        const plain = (await getJson<{ reservations: Reservation[]; continuationToken: string }>(path));
        await setFaults(r, { shapes: { shuffle: true } });
        const shuffled = await getJson<{ reservations: Reservation[]; continuationToken: string }>(path);
        expect(shuffled.reservations.map((x) => x.id)).toEqual(plain.reservations.map((x) => x.id).reverse());
        expect(shuffled.continuationToken).toBe(plain.continuationToken);
      });

      it('with short pages, reversed, and URL-unsafe tokens, still yields every item exactly once', async () => {
        const deviceId = await device();
        await setFaults(r, { shapes: { shortPages: true, shuffle: true, oddTokens: true } });
        const { rows } = await readsDb.sql.query<{ id: string }>(`SELECT id FROM sandbox.reservations WHERE device_id = $1`, [deviceId]);
        const seen: string[] = [];
        let token: string | null = null;
        let pages = 0;
        do {
          const query: string = token === null ? '' : `&continuationToken=${encodeURIComponent(token)}`;
          const page: { reservations: Reservation[]; continuationToken: string | null } = await getJson(`/v1/reservations/${deviceId}/all?pageSize=99${query}`);
          expect(page.reservations.length).toBeLessThanOrEqual(50);
          if (page.continuationToken !== null) {
            expect(page.continuationToken.startsWith(ODD_TOKEN_PREFIX)).toBe(true);
            if (pages === 0) {
              // Sent as is (not encoded) it arrives mangled and is refused.
              const raw = await r.v1('GET', `/v1/reservations/${deviceId}/all?pageSize=99&continuationToken=${page.continuationToken}`);
              expect(raw.status).toBe(400);
            }
          }
          seen.push(...page.reservations.map((x) => x.id));
          token = page.continuationToken;
          pages++;
        } while (token !== null);
        expect(pages).toBeGreaterThan(Math.ceil(rows.length / 99));
        expect(seen).toHaveLength(rows.length);
        expect(new Set(seen)).toEqual(new Set(rows.map((x) => x.id)));
      });

      it('spells every GUID it sends in upper or mixed case and in braces; the same ids, the same data', async () => {
        const deviceId = await device();
        await clearFaults();
        const lists = [
          [`/v1/reservations/${deviceId}/all?pageSize=20`, 'reservations', ['id', 'userId', 'ownerId', 'resourceId', 'deviceId']],
          [`/v1/reservations/resources/${deviceId}/all`, 'resources', ['id', 'deviceId', 'timeScheduleId']],
          [`/v1/reservations/timeschedules/${deviceId}/all`, 'timeSchedules', ['id', 'deviceId']],
          [`/v1/usergroups/${deviceId}/all?pageSize=5`, 'userGroups', ['id', 'deviceId']],
          [`/v1/reservations/users/fetch/${deviceId}`, 'userAccounts', ['deviceId', 'userId', 'userGroupId']],
        ] as const;
        const plain = await Promise.all(lists.map(([path, field]) => getJson<Item>(path).then((b) => b[field] as Item[])));
        const apartment = (await r.fixtures()).residents.find((x) => x.deviceId === deviceId)!.apartmentId;
        const lookup = `/v1/reservations/users/apartment/${encodeURIComponent(apartment)}`;
        const plainLookup = (await getJson<{ userAccounts: Item[] }>(lookup)).userAccounts;
        const spellings: [Faults['shapes'], (id: string) => string][] = [
          [{ idCase: 'upper' }, (id) => id.toUpperCase()],
          [{ idCase: 'mixed' }, (id) => { let n = 0; return id.replace(/[a-f]/g, (c) => (n++ % 2 === 0 ? c.toUpperCase() : c)); }],
          [{ bracedIds: true }, (id) => `{${id}}`],
          [{ idCase: 'upper', bracedIds: true }, (id) => `{${id.toUpperCase()}}`],
        ];
        const spell = (value: unknown, as: (id: string) => string) => (typeof value === 'string' ? as(value) : value);
        for (const [shapes, as] of spellings) {
          await setFaults(r, { shapes });
          for (const [index, [path, field, ids]] of lists.entries()) {
            const items = (await getJson<Item>(path))[field] as Item[];
            expect(items.length, path).toBe(plain[index]!.length);
            items.forEach((item, i) => {
              const before = plain[index]![i]!;
              expect(item, `${JSON.stringify(shapes)} ${path}`).toEqual({ ...before, ...Object.fromEntries(ids.filter((k) => k in before).map((k) => [k, spell(before[k], as)])) });
            });
          }
          const accounts = (await getJson<{ userAccounts: Item[] }>(lookup)).userAccounts;
          accounts.forEach((a, i) => expect(a.reservationResources).toEqual((plainLookup[i]!.reservationResources as string[]).map(as)));
        }
      });

      it('leaves the schedule of each system’s last room out of the list (unlistedSchedule); its room still names it', async () => {
        const deviceId = await device();
        await clearFaults();
        const resources = (await getJson<{ resources: Item[] }>(`/v1/reservations/resources/${deviceId}/all`)).resources;
        const plainSchedules = (await getJson<{ timeSchedules: Item[] }>(`/v1/reservations/timeschedules/${deviceId}/all`)).timeSchedules;
        const { rows } = await readsDb.sql.query<{ id: string }>(`SELECT time_schedule_id::text AS id FROM sandbox.resources WHERE device_id = $1 ORDER BY seq DESC LIMIT 1`, [deviceId]);
        const hidden = rows[0]!.id;
        await setFaults(r, { shapes: { unlistedSchedule: true } });
        const schedules = (await getJson<{ timeSchedules: Item[] }>(`/v1/reservations/timeschedules/${deviceId}/all`)).timeSchedules;
        expect(schedules.map((x) => x.id)).toEqual(plainSchedules.map((x) => x.id).filter((id) => id !== hidden));
        expect((await getJson<{ resources: Item[] }>(`/v1/reservations/resources/${deviceId}/all`)).resources).toEqual(resources);
        expect(resources.some((x) => x.timeScheduleId === hidden)).toBe(true);
      });

      it('fails one page of one list as often as told (pageFailure), then answers it; other pages and lists are untouched', async () => {
        const deviceId = await device();
        await clearFaults();
        const path = `/v1/reservations/${deviceId}/all?pageSize=10`;
        const first = await getJson<{ reservations: Reservation[]; continuationToken: string }>(path);
        const second = `${path}&continuationToken=${encodeURIComponent(first.continuationToken)}`;
        const plainSecond = await getJson<{ reservations: Reservation[] }>(second);
        await setFaults(r, { pageFailure: { list: 'reservations', page: 2, statuses: [429, 429, 503, 503, 503], retryAfterSeconds: 1 } });
        expect((await r.v1('GET', path)).status).toBe(200);
        const answers: number[] = [];
        for (let i = 0; i < 6; i++) answers.push((await r.v1('GET', second)).status);
        expect(answers).toEqual([429, 429, 503, 503, 503, 200]);
        expect((await r.v1('GET', second)).status).toBe(200);
        expect(await getJson<{ reservations: Reservation[] }>(second)).toEqual(plainSecond);
        await setFaults(r, { pageFailure: { list: 'reservations', page: 1, statuses: [503], deviceId: '00000000-0000-4000-8000-000000000000' } });
        expect((await r.v1('GET', path)).status).toBe(200);
        await setFaults(r, { shapes: { maxPageItems: 3 }, pageFailure: { list: 'reservations', page: 1, statuses: [429], retryAfterSeconds: 7 } });
        const busy = await r.v1('GET', path);
        expect([busy.status, busy.headers.get('retry-after')]).toEqual([429, '7']);
        // maxPageItems caps a page below what was asked.
        expect((await getJson<{ reservations: Reservation[] }>(path)).reservations).toHaveLength(3);
        expect((await r.v1('GET', `/v1/reservations/resources/${deviceId}/all`)).status).toBe(200);
      });

      it('refuses unknown members and out-of-range values in the switches', async () => {
        for (const body of [{ shapes: { sortOf: true } }, { shapes: { acceptStatus: 204 } }, { afterAccept: { mode: 'explode' } }, { afterAccept: { mode: 'status', status: 404 } }, { afterAccept: { mode: 'delay', delayMs: 600_001 } }]) {
          expect((await r.call('PUT', '/_sandbox/faults', { json: body })).status, JSON.stringify(body)).toBe(400);
        }
      });
    });

    describe('writes', () => {
      let day = 1;
      afterAll(clearFaults);

      async function target() {
        const f = await w.fixtures();
        const sys0 = f.approvals[0]!.deviceIds[0]!;
        const { rows } = await writesDb.sql.query<{ id: string }>(`SELECT id FROM sandbox.resources WHERE device_id = $1 AND name = 'Tvättstuga 1'`, [sys0]);
        return { user: f.residents.find((x) => x.deviceId === sys0)!, resource: rows[0]!.id };
      }
      /** A fresh free slot each call: 06:00–09:00 UTC on the next unused day. */
      async function bookingBody() {
        const { user, resource } = await target();
        const date = new Date(NOW.getTime() + day++ * 86_400_000).toISOString().slice(0, 10);
        return { userId: user.userId, resourceId: resource, startTime: `${date}T06:00Z`, endTime: `${date}T09:00Z` };
      }
      async function madeBooking(body: { resourceId: string; startTime: string }) {
        await writes.drain();
        const { rows } = await writesDb.sql.query(`SELECT id FROM sandbox.reservations WHERE resource_id = $1 AND start_time = $2`, [body.resourceId, new Date(body.startTime.replace('Z', ':00Z'))]);
        return rows.length === 1;
      }
      const lastRequest = async () => (await writesDb.sql.query<{ correlation_id: string }>(`SELECT correlation_id FROM sandbox.requests ORDER BY id DESC LIMIT 1`)).rows[0]!.correlation_id;

      it('shapes the 202 timestamp and the webhook envelope, and can answer 200 or 201', async () => {
        await setFaults(w, { shapes: { minuteTimes: true, offsetTimes: true, extraFields: true, acceptStatus: 201 } });
        const body = await bookingBody();
        const response = await w.v1('POST', '/v1/reservations', { json: body });
        expect(response.status).toBe(201);
        const accepted = (await response.json()) as Item;
        expect(accepted.timestamp).toBe('2026-11-25T11:00+01:00');
        expect(accepted).toMatchObject({ correlationId: expect.any(String) as unknown, tenantRef: null, _links: expect.any(Object) as unknown });
        expect(await madeBooking(body)).toBe(true);
        const event = receiver.of(accepted.correlationId as string)!;
        expect(event.timestamp).toBe('2026-11-25T11:00+01:00');
        expect(event).toMatchObject({ tenantRef: null, eventData: { succeded: true, tenantRef: null } });
        expect(typeof event.etag).toBe('string');

        await setFaults(w, { shapes: { fractionTimes: true, acceptStatus: 200 } });
        const again = await w.v1('POST', '/v1/reservations', { json: await bookingBody() });
        expect(again.status).toBe(200);
        const plainBody = (await again.json()) as Item;
        expect(Object.keys(plainBody)).toEqual(['correlationId', 'timestamp']);
        expect(plainBody.timestamp).toBe('2026-11-25T10:00:00.0000000Z');
        await writes.drain();
        expect(receiver.of(plainBody.correlationId as string)!.timestamp).toBe('2026-11-25T10:00:00.0000000Z');
      });

      it('spells the 202 correlation id and the webhook’s ids as the id shapes say; the booking is made as asked in lower case', async () => {
        await setFaults(w, { shapes: { idCase: 'upper', bracedIds: true } });
        const body = await bookingBody();
        const response = await w.v1('POST', '/v1/reservations', { json: body });
        expect(response.status).toBe(202);
        const { correlationId } = (await response.json()) as { correlationId: string };
        expect(correlationId).toMatch(/^\{[0-9A-F-]{36}\}$/);
        expect(correlationId.slice(1, -1).toLowerCase()).toBe(await lastRequest());
        expect(await madeBooking(body)).toBe(true);
        const event = receiver.events.find((e) => e.correlationId === correlationId)!;
        const data = (event.eventData as { data: { reservationId: string } }).data;
        expect(data.reservationId).toMatch(/^\{[0-9A-F-]{36}\}$/);
        const { rows } = await writesDb.sql.query<{ id: string }>(`SELECT id FROM sandbox.reservations WHERE resource_id = $1 AND start_time = $2`, [body.resourceId, new Date(body.startTime.replace('Z', ':00Z'))]);
        expect(data.reservationId.slice(1, -1).toLowerCase()).toBe(rows[0]!.id);
      });

      it('keeps the webhook switches working with shaped events: a duplicate carries the same shaped bytes', async () => {
        await setFaults(w, { shapes: { offsetTimes: true, extraFields: true }, webhook: { duplicate: true } });
        const response = await w.v1('POST', '/v1/reservations', { json: await bookingBody() });
        const { correlationId } = (await response.json()) as { correlationId: string };
        await writes.drain();
        const copies = receiver.events.filter((e) => e.correlationId === correlationId);
        expect(copies).toHaveLength(2);
        expect(copies[1]).toEqual(copies[0]);
        expect(copies[0]!.timestamp).toBe('2026-11-25T11:00:00+01:00');
      });

      it("afterAccept 'delay': the normal 202 comes late; the booking is made", async () => {
        await setFaults(w, { afterAccept: { mode: 'delay', delayMs: 300 } });
        const body = await bookingBody();
        const started = performance.now();
        const response = await w.v1('POST', '/v1/reservations', { json: body });
        expect(performance.now() - started).toBeGreaterThanOrEqual(290);
        expect(response.status).toBe(202);
        expect(((await response.json()) as Item).correlationId).toBe(await lastRequest());
        expect(await madeBooking(body)).toBe(true);
      });

      it("afterAccept 'unreadable': a 202 JSON body that does not parse; the booking is made", async () => {
        await setFaults(w, { afterAccept: { mode: 'unreadable' } });
        const body = await bookingBody();
        const response = await w.v1('POST', '/v1/reservations', { json: body });
        expect(response.status).toBe(202);
        expect(response.headers.get('content-type')).toBe('application/json');
        const text = await response.text();
        expect(() => JSON.parse(text) as unknown).toThrow(SyntaxError);
        expect(text).toContain(await lastRequest());
        expect(await madeBooking(body)).toBe(true);
      });

      it("afterAccept 'status': a 5xx problem, only for the first N of the chosen method; the booking is made", async () => {
        await setFaults(w, { afterAccept: { mode: 'status', status: 503, method: 'POST', times: 1 } });
        const body = await bookingBody();
        const response = await w.v1('POST', '/v1/reservations', { json: body });
        expect(response.status).toBe(503);
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        expect(((await response.json()) as { detail: string }).detail.length).toBeGreaterThan(5);
        expect(await madeBooking(body)).toBe(true);
        expect((await w.v1('POST', '/v1/reservations', { json: await bookingBody() })).status).toBe(202);

        // DELETE only: a cancel answers 500 and still cancels.
        await setFaults(w, { afterAccept: { mode: 'status', method: 'DELETE' } });
        const cancelled = await bookingBody();
        expect((await w.v1('POST', '/v1/reservations', { json: cancelled })).status).toBe(202);
        expect(await madeBooking(cancelled)).toBe(true);
        const { rows } = await writesDb.sql.query<{ id: string }>(`SELECT id FROM sandbox.reservations WHERE start_time = $1`, [new Date(cancelled.startTime.replace('Z', ':00Z'))]);
        expect((await w.v1('DELETE', `/v1/reservations/${rows[0]!.id}`)).status).toBe(500);
        expect(await madeBooking(cancelled)).toBe(false);
      });

      it("afterAccept 'reset': in process the body breaks; over HTTP the connection drops; the booking is made either way", async () => {
        await setFaults(w, { afterAccept: { mode: 'reset' } });
        const body = await bookingBody();
        const response = await w.v1('POST', '/v1/reservations', { json: body });
        await expect(response.text()).rejects.toThrow();
        expect(await madeBooking(body)).toBe(true);

        const server = createServer(nodeListener((request) => writes.fetch(request)));
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
          const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
          const overHttp = await bookingBody();
          const headers = { authorization: `Bearer ${await w.token()}`, 'x-api-key': await w.apiKey(0), 'content-type': 'application/json' };
          const failure = await fetch(`${base}/v1/reservations`, { method: 'POST', headers, body: JSON.stringify(overHttp) }).then(
            () => undefined,
            (error: unknown) => error,
          );
          expect(failure).toBeInstanceOf(TypeError);
          expect(await madeBooking(overHttp)).toBe(true);
          // Other answers pass through the adapter untouched.
          await setFaults(w, {});
          const ok = await fetch(`${base}/v1/reservations`, { method: 'POST', headers, body: JSON.stringify(await bookingBody()) });
          expect(ok.status).toBe(202);
          expect(ok.headers.get('content-type')).toBe('application/json');
        } finally {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }
      });
    });

    describe('bad path and query values', () => {
      const long = 'x'.repeat(5000);
      it.each([
        ['an apartment with NUL', '/v1/reservations/users/apartment/a%00b', 'apartmentId must not contain control characters.'],
        ['an e-mail with NUL', '/v1/reservations/users/email/a%00b%40example.com', 'email must not contain control characters.'],
        ['a reference with a control character', '/v1/reservations/users/reference/ref%1F1', 'referenceId must not contain control characters.'],
        ['a user id with NUL', '/v1/reservations/users/a%00b/reservations', 'userId must not contain control characters.'],
        ['a system id with DEL', '/v1/reservations/users/fetch/a%7Fb', 'deviceId must not contain control characters.'],
        ['a system id that is NUL', '/v1/reservations/%00/all', 'deviceId must not contain control characters.'],
        ['a 5000-character apartment', `/v1/reservations/users/apartment/${long}`, 'apartmentId is longer than 256 characters.'],
        ['a 5000-character e-mail', `/v1/reservations/users/email/${long}`, 'email is longer than 256 characters.'],
        ['a 5000-character reference', `/v1/reservations/users/reference/${long}`, 'referenceId is longer than 256 characters.'],
        ['a 5000-character user id', `/v1/reservations/users/${long}/reservations`, 'userId is longer than 256 characters.'],
        ['a 5000-character system id', `/v1/reservations/${long}/all`, 'deviceId is longer than 256 characters.'],
      ])('GET with %s answers 400 problem+json with a sentence', async (_, path, detail) => {
        const response = await r.v1('GET', path);
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        expect(((await response.json()) as { detail: string }).detail).toBe(detail);
      });

      it('refuses bad approval ids, continuation tokens, reservation ids, client ids and webhook secrets without a 500', async () => {
        const auth = { authorization: `Bearer ${await r.token()}` };
        for (const [path, detail] of [
          ['/v1/apikey/generate/a%00b', 'approvalId must not contain control characters.'],
          [`/v1/apikey/generate/${long}`, 'approvalId is longer than 256 characters.'],
        ]) {
          const response = await r.call('GET', path!, { headers: auth });
          expect(response.status, path).toBe(400);
          expect(((await response.json()) as { detail: string }).detail).toBe(detail);
        }
        const deviceId = await device();
        expect((await r.v1('GET', `/v1/reservations/${deviceId}/all?continuationToken=a%00b`)).status).toBe(400);
        expect((await r.v1('GET', `/v1/reservations/${deviceId}/all?continuationToken=${long}`)).status).toBe(400);
        const cancel = await r.v1('DELETE', '/v1/reservations/a%00b');
        expect(cancel.status).toBe(400);
        expect(((await cancel.json()) as { detail: string }).detail).toBe('reservationId must not contain control characters.');
        // A client id of the right length in characters but not in bytes is refused, not a 500.
        const f = await r.fixtures();
        const token = await r.requestToken({ grant_type: 'client_credentials', client_id: 'é'.repeat(f.clientId.length), client_secret: f.clientSecret, scope: f.scope });
        expect(token.status).toBe(401);
        const hook = await r.call('POST', '/_sandbox/webhooks', { json: { url: 'http://127.0.0.1:1/hook', secret: `whsec_${'a'.repeat(20)}\u0000` } });
        expect(hook.status).toBe(400);
      });
    });
  });
}
