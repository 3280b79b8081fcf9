import 'server-only';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { roomClosures } from '@/lib/db/schema';
import { queryBuilder, selectRows, type JsonRead } from '@/lib/db/read-together';
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
  return toWindows(await db.select(windowColumns).from(roomClosures).where(windowsOf(deviceId, after)));
}

/** readClosureWindows as one read of a `readTogether` (lib/db/read-together.ts). */
export function closureWindowsRead(deviceId: string, after: Date): JsonRead<ClosureWindow[]> {
  const rows = selectRows(queryBuilder.select(windowColumns).from(roomClosures).where(windowsOf(deviceId, after)));
  return { query: rows.query, parse: (json) => toWindows(rows.parse(json)) };
}

const c = roomClosures;
const windowColumns = { id: c.id, resourceIds: c.resourceIds, startsAt: c.startsAt, endsAt: c.endsAt, reason: c.reason };
const windowsOf = (deviceId: string, after: Date) => and(eq(roomClosures.deviceId, deviceId), isNull(roomClosures.liftedAt), gt(roomClosures.endsAt, after));

/** Earliest first (then by id), as the rule and the grid expect. */
function toWindows(rows: readonly { id: string; resourceIds: string[]; startsAt: Date; endsAt: Date; reason: string }[]): ClosureWindow[] {
  return [...rows]
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.id.localeCompare(b.id))
    .map((r) => ({ id: r.id, resourceIds: r.resourceIds, startMs: r.startsAt.getTime(), endMs: r.endsAt.getTime(), reason: r.reason }));
}
