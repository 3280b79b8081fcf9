import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { roomClosures } from '@/lib/db/schema';

/**
 * Marks a closure done when each of its targets is settled: it has a recorded outcome (gone,
 * started, refused before a request), or its cancellation request is resolved (succeeded or
 * definitely refused). A request still pending — sent and waiting, or re-sent by the reconciler
 * after its effect was unknown — keeps the closure 'cancelling'. Call it inside the transaction
 * that resolved one of the closure's requests (the row lock taken first makes the check see every
 * other resolution committed before it), and at the end of the closure's job. Returns whether it
 * marked the closure done now.
 *
 * Kept apart from ./store.ts so that lib/reservations (which resolves requests) can call it
 * without an import circle.
 */
export async function markClosureDoneIfSettled(tx: Database, closureId: string): Promise<boolean> {
  // Lock first, then look in a new statement: under READ COMMITTED it sees what committed meanwhile.
  await tx.select({ id: roomClosures.id }).from(roomClosures).where(eq(roomClosures.id, closureId)).for('update');
  const done = await tx
    .update(roomClosures)
    .set({ status: 'done', finishedAt: sql`now()`, leaseUntil: null })
    .where(
      and(
        eq(roomClosures.id, closureId),
        eq(roomClosures.status, 'cancelling'),
        sql`NOT EXISTS (
          SELECT 1 FROM jsonb_array_elements(${roomClosures.targets}) AS t(target)
          WHERE t.target->'outcome' IS NULL
            AND NOT EXISTS (
              SELECT 1 FROM reservation_requests r
              WHERE r.closure_id = ${roomClosures.id}
                AND r.reservation_id = (t.target->>'reservationId')::uuid
                AND r.status IN ('succeeded', 'failed')))`,
      ),
    )
    .returning({ id: roomClosures.id });
  return done.length > 0;
}
