import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type DbHandle } from '@/lib/db/client';
import { createPostgresTestDb, describeWithDb, type TestDatabase } from '@/tests/db';
import { env } from '@/lib/env';
import { PgEventBus } from './pg-bus';
import { markRequestAccepted } from '@/lib/reservations/lifecycle';
import { appendRequestEvent } from './store';
import type { PortalEvent } from './types';
import { pendingRequestView as view } from '@/tests/request-views';

const until = async (check: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describeWithDb('portal_events notify trigger', (ctx) => {
  it('notifies the id of a committed event, and nothing for a rolled-back one', async () => {
    const { handle } = ctx();
    const received: string[] = [];
    let stopListening: () => Promise<void>;
    if (handle.driver.kind === 'pglite') {
      stopListening = await handle.driver.client.listen('portal_events', (payload) => received.push(payload));
    } else {
      const { default: pg } = await import('pg');
      const listener = new pg.Client({ connectionString: ctx().options.url });
      await listener.connect();
      listener.on('notification', (m) => received.push(m.payload ?? ''));
      await listener.query('LISTEN portal_events');
      stopListening = () => listener.end();
    }
    const committed = await handle.db.transaction((tx) => appendRequestEvent(tx, view(randomUUID())));
    await expect(
      handle.db.transaction(async (tx) => {
        await appendRequestEvent(tx, view(randomUUID()));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const after = await handle.db.transaction((tx) => appendRequestEvent(tx, view(randomUUID())));
    await until(() => received.length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    await stopListening();
    // Ids only, and exactly the committed ones.
    expect(received).toEqual([String(committed.id), String(after.id)]);
  });
});

describe.skipIf(!env.TEST_DATABASE_URL)('PgEventBus across instances [postgres]', () => {
  let db: TestDatabase;
  let second: DbHandle;
  const buses: PgEventBus[] = [];
  const url = () => db.options.url ?? '';

  function newBus(handle: DbHandle, options: { safetyIntervalMs?: number } = {}) {
    const bus = new PgEventBus({
      db: () => Promise.resolve(handle.db),
      connection: { connectionString: url() },
      reconnectDelaysMs: [20, 50, 100],
      // Long, so that the tests prove recovery by LISTEN and catch-up, not by the safety poll.
      safetyIntervalMs: options.safetyIntervalMs ?? 600_000,
    });
    buses.push(bus);
    return bus;
  }
  const collect = (bus: PgEventBus) => {
    const got: PortalEvent[] = [];
    bus.subscribe((e) => got.push(e));
    return got;
  };
  const append = (handle: DbHandle, deviceId = randomUUID()) =>
    handle.db.transaction((tx) => appendRequestEvent(tx, view(deviceId)));

  beforeAll(async () => {
    if (!env.TEST_DATABASE_URL) return;
    db = await createPostgresTestDb(env.TEST_DATABASE_URL);
    second = await openDatabase({ url: url(), maxConnections: 5 });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.stop()));
    await second?.close();
    await db?.dispose();
  }, 60_000);

  it('makes a second appender wait until the first commits, so ids become visible in id order', async () => {
    let releaseFirst = () => undefined as void;
    const firstHolds = new Promise<void>((r) => (releaseFirst = r));
    let firstAppended = () => undefined as void;
    const firstIn = new Promise<void>((r) => (firstAppended = r));
    const first = db.handle.db.transaction(async (tx) => {
      const e = await appendRequestEvent(tx, view(randomUUID()));
      firstAppended();
      await firstHolds;
      return e;
    });
    await firstIn;
    let secondDone = false;
    const secondAppend = append(second).then((e) => {
      secondDone = true;
      return e;
    });
    await new Promise((r) => setTimeout(r, 300));
    // Without the lock the second would have taken a later id and committed before the first.
    expect(secondDone).toBe(false);
    releaseFirst();
    const [a, b] = await Promise.all([first, secondAppend]);
    expect(b.id).toBeGreaterThan(a.id);
  });

  it('applies an outcome that beat the 202 while a webhook of the same system is mid-transaction, without a deadlock', async () => {
    const device = randomUUID();
    await db.handle.sql.query('INSERT INTO mirror_state (device_id, generation, refreshed_at) VALUES ($1, 1, now())', [device]);
    const { rows } = await db.handle.sql.query<{ id: string }>(
      `INSERT INTO reservation_requests (kind, device_id, requested_by, resource_id, start_time, end_time)
       VALUES ('create', $1, 'u1', gen_random_uuid(), '2026-12-01T06:00Z', '2026-12-01T09:00Z') RETURNING id`,
      [device],
    );
    const correlationId = randomUUID();
    const payload = { correlationId, eventType: 'reservationResult', eventData: { succeded: true, data: { reservationId: randomUUID() } } };
    await db.handle.sql.query(
      `INSERT INTO webhook_events (webhook_id, event_type, correlation_id, succeeded, payload) VALUES ($1, 'reservationResult', $2, true, $3::jsonb)`,
      [`msg_${randomUUID()}`, correlationId, JSON.stringify(payload)],
    );
    // A webhook transaction of the same system, as resolveOpenRequest runs it: the mirror_state
    // row first (applying its outcome), the event log last.
    let rowLocked = () => undefined as void;
    const locked = new Promise<void>((r) => (rowLocked = r));
    const webhook = second.db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE mirror_state SET pages_fetched = pages_fetched WHERE device_id = ${device}`);
      rowLocked();
      await new Promise((r) => setTimeout(r, 300));
      return appendRequestEvent(tx, view(device));
    });
    await locked;
    const accepted = markRequestAccepted(db.handle.db, rows[0]?.id ?? '', correlationId);
    const [events] = await Promise.all([accepted, webhook]);
    expect(events.map((e) => e.data.status)).toEqual(['pending', 'succeeded']);
  });

  it('delivers events written on one instance to listeners on both, once each and in id order', async () => {
    const a = newBus(db.handle);
    const b = newBus(second);
    await Promise.all([a.start(), b.start()]);
    const onA = collect(a);
    const onB = collect(b);
    const written: number[] = [];
    // Writers on both instances, concurrently: the advisory lock orders the commits.
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const e = await append(i % 2 === 0 ? db.handle : second);
        written.push(e.id);
        (i % 2 === 0 ? a : b).publish([e]);
      }),
    );
    written.sort((x, y) => x - y);
    await until(() => onA.length >= 40 && onB.length >= 40);
    await new Promise((r) => setTimeout(r, 200));
    expect(onA.map((e) => e.id)).toEqual(written);
    expect(onB.map((e) => e.id)).toEqual(written);
    // Full rows reach the listeners, not just ids.
    expect(onB[0]?.data.requestedBy).toBe('u1');
  });

  it('loses nothing when the listener connection is terminated mid-stream', async () => {
    const b = newBus(second);
    await b.start();
    const got = collect(b);
    const pid = b.listenerPid();
    expect(pid).toBeTypeOf('number');
    const written: number[] = [];
    const writer = (async () => {
      for (let i = 0; i < 200; i += 1) {
        written.push((await append(db.handle)).id);
        if (i === 60 || i === 140) {
          const current = b.listenerPid();
          if (current !== null) await db.handle.sql.query('SELECT pg_terminate_backend($1)', [current]);
        }
      }
    })();
    await writer;
    await until(() => got.length >= 200, 15_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(got.map((e) => e.id)).toEqual(written);
    expect(new Set(got.map((e) => e.id)).size).toBe(200);
    expect(b.stats().connections).toBeGreaterThanOrEqual(2);
    expect(b.listenerPid()).not.toBe(pid);
  });

  it('catches up after the database refused connections for a while', async () => {
    const b = newBus(second);
    await b.start();
    const got = collect(b);
    const name = new URL(url()).pathname.slice(1);
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: env.TEST_DATABASE_URL });
    await admin.connect();
    // Nobody may connect; the listener is thrown out and its reconnection attempts fail.
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    const pid = b.listenerPid();
    if (pid !== null) await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    // Pooled connections that are still open keep writing meanwhile.
    const written = [(await append(db.handle)).id, (await append(db.handle)).id];
    await new Promise((r) => setTimeout(r, 300));
    expect(b.stats().listening).toBe(false);
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    await admin.end();
    // No later write nudges it: the catch-up after listening again must bring both.
    await until(() => got.length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(got.map((e) => e.id)).toEqual(written);
  });

  it('a local publish and the notification deliver an event once', async () => {
    const a = newBus(db.handle);
    await a.start();
    const got = collect(a);
    const e = await append(db.handle);
    a.publish([e]);
    a.publish([e]);
    await until(() => got.length >= 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(got.map((x) => x.id)).toEqual([e.id]);
    expect(a.stats().notifications).toBeGreaterThanOrEqual(1);
  });
});
