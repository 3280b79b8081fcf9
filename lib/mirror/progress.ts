import 'server-only';
import type { Database } from '@/lib/db';
import { readLoadCounts } from './store';
import { estimateLoadProgress, LOAD_RATE_WINDOW_S, type LoadProgress } from './progress-estimate';

export { estimateLoadProgress, type LoadProgress } from './progress-estimate';

/**
 * How far the connected systems' first loads are, for the admin (issue 49: "612 of 1,000 systems
 * loaded, about 9 min left"): one statement over every system, the time left from the rate
 * observed over the last ten minutes, on every instance alike (it is read from the database).
 */
export async function readLoadProgress(db: Database, now = new Date()): Promise<LoadProgress> {
  return estimateLoadProgress(await readLoadCounts(db, LOAD_RATE_WINDOW_S), now);
}
