import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { roomClosures } from '@/lib/db/schema';

/** A closure's reason, for the e-mail that tells a resident their booking was cancelled by it. */
export async function readClosureReason(db: Database, closureId: string): Promise<string | null> {
  const [row] = await db.select({ reason: roomClosures.reason }).from(roomClosures).where(eq(roomClosures.id, closureId));
  return row?.reason ?? null;
}
