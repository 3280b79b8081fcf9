import type { ClosureWindow } from '@/lib/booking-rules';
import type { RoomClosureNote } from './types';

/** The closures of one room, as its summary mentions them (the caller read them: not lifted, not over). */
export function closureNotes(closures: readonly ClosureWindow[], resourceId: string): RoomClosureNote[] {
  return closures.filter((c) => c.resourceIds.includes(resourceId)).map((c) => ({ reason: c.reason, startMs: c.startMs, endMs: c.endMs }));
}
