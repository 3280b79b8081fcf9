import 'server-only';
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { roomClosures } from '@/lib/db/schema';
import type { ClosureWindow } from '@/lib/booking-rules';

/** A closure's reason, for the e-mail that tells a resident their booking was cancelled by it. */
export async function readClosureReason(db: Database, closureId: string): Promise<string | null> {
  const [row] = await db.select({ reason: roomClosures.reason }).from(roomClosures).where(eq(roomClosures.id, closureId));
  return row?.reason ?? null;
}

/**
 * A system's closures in force or to come that end after `after` (not lifted), as the booking rule
 * reads them (lib/booking-rules/not-closed.ts): one range scan of the partial index
 * room_closures_device_end, cheap enough for every grid read and booking.
 */
export async function readClosureWindows(db: Database, deviceId: string, after: Date): Promise<ClosureWindow[]> {
  const c = roomClosures;
  const rows = await db
    .select({ id: c.id, resourceIds: c.resourceIds, startsAt: c.startsAt, endsAt: c.endsAt, reason: c.reason })
    .from(c)
    .where(and(eq(c.deviceId, deviceId), isNull(c.liftedAt), gt(c.endsAt, after)))
    .orderBy(asc(c.startsAt), asc(c.id));
  return rows.map((r) => ({ id: r.id, resourceIds: r.resourceIds, startMs: r.startsAt.getTime(), endMs: r.endsAt.getTime(), reason: r.reason }));
}
