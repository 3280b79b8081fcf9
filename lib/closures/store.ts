import 'server-only';
import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '@/lib/db';
import { equalsAnyUuid } from '@/lib/db/raw';
import { reservationRequests, roomClosures, type ClosureTarget } from '@/lib/db/schema';
import type { RequestRow } from '@/lib/reservations/lifecycle';

/**
 * room_closures (migration 0021): the only code that writes it. A closure is stored with its
 * targets once, the job records what became of targets that made no request, marks it done, and
 * a manager may lift it.
 */

export type ClosureRow = typeof roomClosures.$inferSelect;

export interface NewClosure {
  deviceId: string;
  resourceIds: string[];
  startsAt: Date;
  endsAt: Date;
  reason: string;
  createdBy: string;
  createdByName: string;
  idempotencyKey: string;
  targets: ClosureTarget[];
}

/** Stores a closure under its creator's Idempotency-Key; a key seen before returns that closure (fresh: false). */
export async function insertClosure(db: Database, closure: NewClosure): Promise<{ row: ClosureRow; fresh: boolean }> {
  const [row] = await db
    .insert(roomClosures)
    .values({ ...closure, status: closure.targets.length === 0 ? 'done' : 'cancelling', finishedAt: closure.targets.length === 0 ? sql`now()` : null })
    .onConflictDoNothing({ target: [roomClosures.createdBy, roomClosures.idempotencyKey] })
    .returning();
  if (row) return { row, fresh: true };
  const seen = await findClosureByKey(db, closure.createdBy, closure.idempotencyKey);
  if (!seen) throw new Error('closure idempotency row vanished');
  return { row: seen, fresh: false };
}

export async function findClosureByKey(db: Database, createdBy: string, key: string): Promise<ClosureRow | undefined> {
  const [row] = await db
    .select()
    .from(roomClosures)
    .where(and(eq(roomClosures.createdBy, createdBy), eq(roomClosures.idempotencyKey, key)));
  return row;
}

export async function readClosure(db: Database, deviceId: string, closureId: string): Promise<ClosureRow | undefined> {
  const [row] = await db
    .select()
    .from(roomClosures)
    .where(and(eq(roomClosures.id, closureId), eq(roomClosures.deviceId, deviceId)));
  return row;
}

/** A system's closures not lifted that end after `after`, earliest first (the partial index room_closures_device_end). */
export async function listActiveClosureRows(db: Database, deviceId: string, after: Date): Promise<ClosureRow[]> {
  return db
    .select()
    .from(roomClosures)
    .where(and(eq(roomClosures.deviceId, deviceId), isNull(roomClosures.liftedAt), gt(roomClosures.endsAt, after)))
    .orderBy(asc(roomClosures.startsAt), asc(roomClosures.id));
}

/** Records what became of target `index` when its cancellation made no request. One statement: the row lock orders concurrent writers. */
export async function recordTargetOutcome(db: Database, closureId: string, index: number, outcome: NonNullable<ClosureTarget['outcome']>): Promise<void> {
  await db
    .update(roomClosures)
    .set({ targets: sql`jsonb_set(${roomClosures.targets}, ARRAY[${String(index)}, 'outcome'], ${JSON.stringify(outcome)}::jsonb)` })
    .where(eq(roomClosures.id, closureId));
}

/** The closure's cancellation requests (each names its reservation). */
export async function closureRequests(db: Database, closureId: string): Promise<RequestRow[]> {
  return db.select().from(reservationRequests).where(eq(reservationRequests.closureId, closureId));
}

/** Lifts a closure (bookings may be made again); false when it was already lifted. */
export async function liftClosureRow(db: Database, deviceId: string, closureId: string, liftedBy: string): Promise<boolean> {
  const rows = await db
    .update(roomClosures)
    .set({ liftedAt: sql`now()`, liftedBy })
    .where(and(eq(roomClosures.id, closureId), eq(roomClosures.deviceId, deviceId), isNull(roomClosures.liftedAt)))
    .returning({ id: roomClosures.id });
  return rows.length > 0;
}

/**
 * Claims closures still 'cancelling' whose lease is free or expired (a crashed instance's): sets
 * the lease in one statement over rows picked FOR UPDATE SKIP LOCKED, so across instances each
 * closure is run by one of them. `ids` narrows it to given closures (the job started on creation).
 */
export async function claimClosures(db: Database, leaseSeconds: number, limit: number, ids?: readonly string[]): Promise<ClosureRow[]> {
  const c = alias(roomClosures, 'due');
  const due = db
    .select({ id: c.id })
    .from(c)
    .where(
      and(
        eq(c.status, 'cancelling'),
        or(isNull(c.leaseUntil), lt(c.leaseUntil, sql`now()`)),
        ids ? equalsAnyUuid(c.id, ids) : undefined,
      ),
    )
    .orderBy(asc(c.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(roomClosures)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(and(inArray(roomClosures.id, due), eq(roomClosures.status, 'cancelling')))
    .returning();
}

/** Keeps the lease of a closure being run (between its targets). */
export async function renewLease(db: Database, closureId: string, leaseSeconds: number): Promise<void> {
  await db
    .update(roomClosures)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(and(eq(roomClosures.id, closureId), eq(roomClosures.status, 'cancelling')));
}

/** Lets go of a closure not finished (its job stopped early: shutdown), for another run to take. */
export async function releaseLease(db: Database, closureId: string): Promise<void> {
  await db.update(roomClosures).set({ leaseUntil: null }).where(eq(roomClosures.id, closureId));
}
