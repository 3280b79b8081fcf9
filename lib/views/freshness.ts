import 'server-only';
import type { SqlRunner } from '@/lib/db/sql-runner';
import { log } from '@/lib/log';
import { ensureFresh, type MirrorStatus } from '@/lib/mirror/refresh';
import { readState } from '@/lib/mirror/store';
import type { MirrorSource } from '@/lib/mirror/types';
import type { Freshness } from './types';

/** What the views need besides their arguments; the portal's wiring is in ./portal.ts. */
export interface ViewDeps {
  sql: SqlRunner;
  /** Builds the upstream source of a system's mirror (may fail: no key, service unreachable). */
  source: (deviceId: string) => Promise<MirrorSource>;
  freshnessMs: number;
  now?: () => Date;
}

/** Shown instead of the raw failure text, which stays in the log. */
export const UNREACHABLE_MESSAGE = 'The reservation service could not be reached.';

function toFreshness(status: MirrorStatus): Freshness {
  if (status.status === 'loading') {
    return { status: 'loading', pagesFetched: status.pagesFetched, lastError: status.lastError ? UNREACHABLE_MESSAGE : null };
  }
  return {
    status: 'ready',
    refreshedAt: status.refreshedAt.toISOString(),
    refreshing: status.refreshing,
    lastError: status.lastError ? UNREACHABLE_MESSAGE : null,
    lastErrorAt: status.lastErrorAt?.toISOString() ?? null,
  };
}

/**
 * Makes sure a system's mirror is (being) refreshed and says how current it is. The source is
 * built first: when that fails (service client cannot start), a copy already held is still
 * served with the failure noted, and only a system never loaded fails outright.
 */
export async function systemFreshness(deps: ViewDeps, deviceId: string): Promise<Freshness> {
  let source: MirrorSource;
  try {
    source = await deps.source(deviceId);
  } catch (error) {
    const state = await readState(deps.sql, deviceId);
    if (!state?.refreshedAt) throw error;
    log.warn('mirror source unavailable; serving the last copy', { deviceId, error });
    return {
      status: 'ready',
      refreshedAt: state.refreshedAt.toISOString(),
      refreshing: false,
      lastError: UNREACHABLE_MESSAGE,
      lastErrorAt: new Date().toISOString(),
    };
  }
  return toFreshness(await ensureFresh(deps.sql, deviceId, () => source, deps.freshnessMs, deps.now?.() ?? new Date()));
}
