import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { currentStreamAccess } from '@/lib/events/stream-access';
import { bumpSessionVersion, createUser, findUserById, notifyAccessChange, setManagerSystems, setPassword } from '@/lib/auth/users';
import { openDatabase, type Database, type DbHandle } from '@/lib/db/client';
import { connections, systems, users } from '@/lib/db/schema';
import { env } from '@/lib/env';
import { createPostgresTestDb, describeWithDb, type TestDatabase } from '@/tests/db';
import { pendingRequestView as view } from '@/tests/request-views';
import { SseReader } from '@/tests/sse-reader';
import { InProcessEventBus, listenForAccessNotices } from './bus';
import type { EventBus } from './bus-types';
import { PgEventBus } from './pg-bus';
import { endAllEventStreams, openEventStreamCount } from './sse';
import { appendRequestEvent } from './store';
import { eventStreamResponse } from './stream-route';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Long, so that these tests prove the notices, not the periodic backstop.
const NO_BACKSTOP_MS = 600_000;

async function seedSystems(db: Database, count: number): Promise<string[]> {
  const [connection] = await db.insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
  const ids = Array.from({ length: count }, () => randomUUID());
  await db.insert(systems).values(ids.map((deviceId, i) => ({ deviceId, connectionId: connection?.id ?? '', name: `System ${i}` })));
  return ids;
}

async function newManager(db: Database, deviceIds: string[]) {
  const user = await createUser(db, { email: `${randomUUID()}@example.com`, name: 'Manager', role: 'manager', passwordHash: 'x' });
  if (deviceIds.length > 0) await setManagerSystems(db, user.id, deviceIds);
  return user;
}

/** GET /api/events as the route builds it: the user's systems and session version, read from the database. */
async function openStream(db: Database, bus: EventBus, userId: string, controller: AbortController, lastEventId?: number) {
  const sessionVersion = (await findUserById(db, userId))?.sessionVersion ?? -1;
  const initial = await currentStreamAccess(db, userId, sessionVersion);
  if ('ended' in initial) throw new Error('no session');
  const response = eventStreamResponse(
    new Request('http://portal.test/api/events', { headers: lastEventId ? { 'last-event-id': String(lastEventId) } : {}, signal: controller.signal }),
    { db, bus, deviceIds: initial.deviceIds, access: { userId, check: () => currentStreamAccess(db, userId, sessionVersion), recheckMs: NO_BACKSTOP_MS } },
  );
  const reader = new SseReader(response.body);
  // The stream's own first check is over; what follows is a notice's doing.
  await sleep(300);
  return reader;
}

describeWithDb('open event streams follow access', (ctx) => {
  let bus: InProcessEventBus;
  let stopListening: () => Promise<void>;
  const controllers: AbortController[] = [];
  const db = () => ctx().handle.db;
  const controller = () => {
    const c = new AbortController();
    controllers.push(c);
    return c;
  };
  const append = async (deviceId: string) => {
    const event = await db().transaction((tx) => appendRequestEvent(tx, view(deviceId)));
    bus.publish([event]);
    return event;
  };

  beforeAll(async () => {
    bus = new InProcessEventBus();
    stopListening = await listenForAccessNotices(ctx().handle, (userId) => bus.announceAccessChange(userId));
  });
  afterEach(() => {
    controllers.splice(0).forEach((c) => c.abort());
  });
  afterAll(async () => {
    await stopListening();
  });

  it('ends with reason signed-out when the user signs out (session version bumped), and releases the stream', async () => {
    const [device = ''] = await seedSystems(db(), 1);
    const manager = await newManager(db(), [device]);
    const reader = await openStream(db(), bus, manager.id, controller());
    const before = await append(device);
    await reader.until(() => reader.eventIds().includes(before.id));
    const started = Date.now();
    await bumpSessionVersion(db(), manager.id);
    await reader.until(() => reader.ended, 5_000);
    expect(reader.endReason()).toBe('signed-out');
    expect(reader.ended).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(reader.frames.at(-1)).toEqual({ event: 'end', id: undefined, data: '{"reason":"signed-out"}' });
    expect(bus.listenerCount()).toBe(0);
  });

  it('ends with reason signed-out after a password reset', async () => {
    const manager = await newManager(db(), []);
    const reader = await openStream(db(), bus, manager.id, controller());
    await setPassword(db(), manager.id, 'unused', 'new-hash');
    await reader.until(() => reader.ended, 5_000);
    expect(reader.endReason()).toBe('signed-out');
  });

  it('ends with reason account-removed when the account is gone', async () => {
    const manager = await newManager(db(), []);
    const reader = await openStream(db(), bus, manager.id, controller());
    await db().transaction(async (tx) => {
      await tx.delete(users).where(eq(users.id, manager.id));
      await notifyAccessChange(tx, manager.id);
    });
    await reader.until(() => reader.ended, 5_000);
    expect(reader.endReason()).toBe('account-removed');
  });

  it("stops carrying a system's events once the manager is unassigned, keeps the others, and carries a newly assigned one", async () => {
    const [a = '', b = '', c = ''] = await seedSystems(db(), 3);
    const manager = await newManager(db(), [a, b]);
    const other = await newManager(db(), [a]);
    const reader = await openStream(db(), bus, manager.id, controller());
    const otherReader = await openStream(db(), bus, other.id, controller());
    const first = [await append(a), await append(b)];
    await reader.until(() => reader.eventIds().length >= 2);
    expect(reader.eventIds()).toEqual(first.map((e) => e.id));

    await setManagerSystems(db(), manager.id, [b]);
    await sleep(500);
    const afterUnassign = [await append(a), await append(b)];
    await reader.until(() => reader.eventIds().includes(afterUnassign[1]?.id ?? 0));
    await sleep(100);
    expect(reader.eventIds()).toEqual([...first, afterUnassign[1]].map((e) => e?.id));

    await setManagerSystems(db(), manager.id, [b, c]);
    await sleep(500);
    const assigned = await append(c);
    await reader.until(() => reader.eventIds().includes(assigned.id));
    expect(reader.eventIds()).toContain(assigned.id);
    expect(reader.ended).toBe(false);
    // Someone else's notice changes nothing for another user's stream.
    await otherReader.until(() => otherReader.eventIds().includes(afterUnassign[0]?.id ?? 0));
    expect(otherReader.eventIds()).toContain(afterUnassign[0]?.id);
  });

  it('tells every open stream to reconnect on shutdown, and a reconnect with Last-Event-ID loses nothing', async () => {
    const [device = ''] = await seedSystems(db(), 1);
    const manager = await newManager(db(), [device]);
    const readers = [await openStream(db(), bus, manager.id, controller()), await openStream(db(), bus, manager.id, controller())];
    const seen = await append(device);
    await Promise.all(readers.map((r) => r.until(() => r.eventIds().includes(seen.id))));
    expect(endAllEventStreams('restart')).toBeGreaterThanOrEqual(2);
    for (const reader of readers) {
      await reader.until(() => reader.ended, 2_000);
      expect(reader.endReason()).toBe('restart');
      expect(reader.ended).toBe(true);
    }
    expect(openEventStreamCount()).toBe(0);
    const missed = [await append(device), await append(device)];
    const again = await openStream(db(), bus, manager.id, controller(), seen.id);
    await again.until(() => again.eventIds().length >= 2);
    expect(again.eventIds()).toEqual(missed.map((e) => e.id));
  });
});

describe.skipIf(!env.TEST_DATABASE_URL)('open event streams follow access across instances [postgres]', () => {
  let db: TestDatabase;
  let second: DbHandle;
  const buses: PgEventBus[] = [];
  const controllers: AbortController[] = [];

  const newBus = (handle: DbHandle) => {
    const bus = new PgEventBus({
      db: () => Promise.resolve(handle.db),
      connection: { connectionString: db.options.url ?? '' },
      reconnectDelaysMs: [20, 50, 100],
      safetyIntervalMs: 600_000,
    });
    buses.push(bus);
    return bus;
  };
  const controller = () => {
    const c = new AbortController();
    controllers.push(c);
    return c;
  };

  beforeAll(async () => {
    if (!env.TEST_DATABASE_URL) return;
    db = await createPostgresTestDb(env.TEST_DATABASE_URL);
    second = await openDatabase({ url: db.options.url ?? '', maxConnections: 5 });
  }, 60_000);
  afterAll(async () => {
    controllers.forEach((c) => c.abort());
    await Promise.all(buses.map((b) => b.stop()));
    await second?.close();
    await db?.dispose();
  }, 60_000);

  it('a change made on one instance reaches a stream on the other within 5 s: unassignment, then sign-out', async () => {
    const busA = newBus(db.handle);
    const busB = newBus(second);
    await Promise.all([busA.start(), busB.start()]);
    const [a = '', b = ''] = await seedSystems(db.handle.db, 2);
    const manager = await newManager(db.handle.db, [a, b]);
    // The stream is served by instance B; events and changes are written on instance A.
    const reader = await openStream(second.db, busB, manager.id, controller());
    const append = async (deviceId: string) => {
      const event = await db.handle.db.transaction((tx) => appendRequestEvent(tx, view(deviceId)));
      busA.publish([event]);
      return event;
    };
    const first = [await append(a), await append(b)];
    await reader.until(() => reader.eventIds().length >= 2);
    expect(reader.eventIds()).toEqual(first.map((e) => e.id));

    const changed = Date.now();
    await setManagerSystems(db.handle.db, manager.id, [b]);
    let cutOffAfterMs: number | undefined;
    while (Date.now() - changed < 5_000) {
      const [ea, eb] = [await append(a), await append(b)];
      await reader.until(() => reader.eventIds().includes(eb.id), 2_000);
      if (!reader.eventIds().includes(ea.id)) {
        cutOffAfterMs = Date.now() - changed;
        break;
      }
      await sleep(50);
    }
    expect(cutOffAfterMs).toBeLessThan(5_000);
    const [lateA, lateB] = [await append(a), await append(b)];
    await reader.until(() => reader.eventIds().includes(lateB.id));
    await sleep(100);
    expect(reader.eventIds()).not.toContain(lateA.id);
    expect(reader.eventIds()).toContain(lateB.id);

    const signedOut = Date.now();
    await bumpSessionVersion(db.handle.db, manager.id);
    await reader.until(() => reader.ended, 5_000);
    expect(reader.endReason()).toBe('signed-out');
    expect(Date.now() - signedOut).toBeLessThan(5_000);
  });
});
