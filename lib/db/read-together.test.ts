import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { countingDb, describeWithDb } from '@/tests/db';
import { storeConnection } from '@/lib/systems/store';
import { queryBuilder, readTogether, selectRows } from './read-together';
import { mirrorState, roomClosures } from './schema';

describeWithDb('reads together', (ctx) => {
  it('returns each read as drizzle returns it (timestamps, int8, jsonb, uuid arrays, nulls), in one statement', async () => {
    const db = ctx().handle.db;
    const deviceId = randomUUID();
    await storeConnection(db, { approvalId: randomUUID(), apiKey: 'key', deviceIds: [deviceId], encryptionKey: randomBytes(32) });
    await db.insert(mirrorState).values({
      deviceId,
      generation: 2 ** 40,
      refreshedAt: sql`now()`,
      skippedItems: { total: 1, counts: { reservations: 1 }, samples: [{ collection: 'reservations', id: null, reason: 'a "quoted" reason' }] },
    });
    const rooms = [randomUUID(), randomUUID()];
    await db.insert(roomClosures).values({ deviceId, resourceIds: rooms, startsAt: new Date('2026-03-29T00:30:00Z'), endsAt: sql`now() + interval '1 day'`, reason: 'Vattenskada – stängt' });

    const stateQuery = queryBuilder.select().from(mirrorState).where(eq(mirrorState.deviceId, deviceId));
    const closureQuery = queryBuilder
      .select({ id: roomClosures.id, resourceIds: roomClosures.resourceIds, startsAt: roomClosures.startsAt, endsAt: roomClosures.endsAt, reason: roomClosures.reason, liftedAt: roomClosures.liftedAt })
      .from(roomClosures)
      .where(eq(roomClosures.deviceId, deviceId));
    const counting = await countingDb(ctx().handle);
    const together = await readTogether(counting.db, { state: selectRows(stateQuery), closures: selectRows(closureQuery), none: selectRows(queryBuilder.select().from(mirrorState).where(eq(mirrorState.deviceId, randomUUID()))) });
    expect(counting.queries()).toBe(1);

    const directState = await db.select().from(mirrorState).where(eq(mirrorState.deviceId, deviceId));
    const directClosures = await db
      .select({ id: roomClosures.id, resourceIds: roomClosures.resourceIds, startsAt: roomClosures.startsAt, endsAt: roomClosures.endsAt, reason: roomClosures.reason, liftedAt: roomClosures.liftedAt })
      .from(roomClosures)
      .where(eq(roomClosures.deviceId, deviceId));
    expect(together.state).toEqual(directState);
    expect(together.closures).toEqual(directClosures);
    expect(together.none).toEqual([]);
    // The values themselves, not only their agreement: int8 as a number, Dates, the array of uuids.
    expect(together.state[0]?.generation).toBe(2 ** 40);
    expect(together.state[0]?.refreshedAt).toBeInstanceOf(Date);
    expect(together.closures[0]?.resourceIds).toEqual(rooms);
    expect(together.closures[0]?.startsAt.toISOString()).toBe('2026-03-29T00:30:00.000Z');
  });
});

it('refuses a selection it cannot read back by column name', () => {
  expect(() => selectRows(queryBuilder.select({ n: sql<number>`1` }).from(mirrorState))).toThrow(/not a column/);
});
