import 'server-only';
import type { Database } from '@/lib/db';
import { readBookingRules } from '@/lib/systems/booking-rules';
import type { ReleaseWindows } from './store';

/**
 * The system's rooms whose rule group releases unused bookings (issue 35), for a re-read to
 * remember the released no-shows it finds gone (store.ts rememberReleased). Read per re-read, not
 * kept: an admin's change applies to the next one.
 */
export async function releaseWindowsOf(db: Database, deviceId: string, readBy: Date): Promise<ReleaseWindows> {
  const rules = await readBookingRules(db, deviceId);
  const minutesByResource = new Map<string, number>();
  for (const group of rules?.groups ?? []) {
    if (group.activationMinutes === null) continue;
    for (const id of group.resourceIds) minutesByResource.set(id.toLowerCase(), group.activationMinutes);
  }
  return { minutesByResource, readBy };
}
