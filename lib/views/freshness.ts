import 'server-only';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';
import { ensureFresh, failureKindOf, viewDecision, VIEW_REFRESHES_MAX, viewRefreshesRunning, type MirrorStatus, type RefreshAllowance, type ViewRefreshPolicy } from '@/lib/mirror/refresh';
import { markViewed, readState } from '@/lib/mirror/store';
import type { MirrorErrorKind, MirrorSource, MirrorState } from '@/lib/mirror/types';
import { outsideChangeBoundS } from '@/lib/mirror/freshness-bound';
import type { Freshness, FreshnessErrorKind } from './types';

/** What the views need besides their arguments; the portal's live ones come from lib/wiring.ts. */
export interface ViewDeps {
  db: Database;
  /** Builds the upstream source of a system's mirror (may fail: no key, service unreachable). */
  source: (deviceId: string) => Promise<MirrorSource>;
  freshnessMs: number;
  /** Upstream requests per system per hour that views' refreshes may make (MIRROR_REQUEST_BUDGET_PER_HOUR); 0 or unset: no budget. */
  budgetPerHour?: number;
  /** The budgets admins set per system (lib/systems/request-budgets.ts), in place of budgetPerHour. */
  budgetOverrides?: () => Promise<ReadonlyMap<string, number>>;
  /** MIRROR_STRUCTURE_EVERY: rooms, schedules and groups are re-read every this many re-reads (unset: every time). */
  structureEvery?: number;
  /** MIRROR_BACKGROUND_S in ms (0 or unset: no background re-reads): the bound of a copy nobody views. */
  backgroundMs?: number;
  /**
   * The refreshes this request may still start (a request over many systems: the search, the
   * reports overview); unset: one view of one system, bounded only per process (VIEW_REFRESHES_MAX).
   */
  refreshStarts?: RefreshAllowance;
  now?: () => Date;
}

const policyOf = (deps: ViewDeps, budgetPerHour = deps.budgetPerHour ?? 0): ViewRefreshPolicy => ({ freshnessMs: deps.freshnessMs, budgetPerHour, structureEvery: deps.structureEvery });

/** A system's request budget per hour: its own, when an admin set one, else the setting's. */
export async function budgetOf(deps: Pick<ViewDeps, 'budgetPerHour' | 'budgetOverrides'>, deviceId: string): Promise<number> {
  const own = deps.budgetOverrides ? (await deps.budgetOverrides()).get(deviceId) : undefined;
  return own ?? deps.budgetPerHour ?? 0;
}

// Shown instead of the raw failure text, which stays in the log: one true sentence per kind.
// "could not be reached" only when it was not: a service that answered is not called unreachable.
export const UNREACHABLE_MESSAGE = 'The reservation service could not be reached.';
export const UNREADABLE_MESSAGE = 'The reservation service answered something the portal cannot read.';
export const REFUSED_MESSAGE = "The reservation service refused the portal's request (check the connection).";
export const BUSY_MESSAGE = 'The reservation service is busy and asked the portal to slow down.';
export const INTERNAL_MESSAGE = 'The portal could not update its copy of the reservations (an internal error, see the server log).';

export const FAILURE_MESSAGES: Record<FreshnessErrorKind, string> = {
  unreachable: UNREACHABLE_MESSAGE,
  unreadable: UNREADABLE_MESSAGE,
  refused: REFUSED_MESSAGE,
  busy: BUSY_MESSAGE,
  internal: INTERNAL_MESSAGE,
};

function toFreshness(status: MirrorStatus): Freshness {
  const kind: MirrorErrorKind | null = status.lastError ? (status.lastErrorKind ?? 'internal') : null;
  const failure = {
    lastError: kind ? FAILURE_MESSAGES[kind] : null,
    lastErrorKind: kind,
    retryAt: kind ? (status.retryAt?.toISOString() ?? null) : null,
    nextRefreshAt: status.nextRefreshAt?.toISOString() ?? null,
    deferredBy: status.deferredBy,
    ...(status.waiting ? { waiting: { kind: status.waiting.kind, retryAt: status.waiting.until.toISOString() } } : {}),
  };
  if (status.status === 'loading') {
    const partial = status.partial ? { reservationsRead: status.partial.reservationsRead, reservationsExpected: status.partial.reservationsExpected } : null;
    return { status: 'loading', pagesFetched: status.pagesFetched, refreshing: status.refreshing, partial, ...failure };
  }
  return {
    status: 'ready',
    refreshedAt: status.refreshedAt.toISOString(),
    refreshing: status.refreshing,
    lastErrorAt: status.lastErrorAt?.toISOString() ?? null,
    ...(status.incomplete && status.incomplete.length > 0 ? { incomplete: [...status.incomplete] } : {}),
    ...failure,
  };
}

/**
 * Makes sure a system's mirror is (being) refreshed and says how current it is, with the state row
 * it read (its generation names the copy readers see). Within the freshness window nothing else
 * is done. When a refresh is due, the source is built first: when that fails (no API key, service
 * client cannot start), a copy already held is still served with the failure noted, and only a
 * system never loaded fails outright. `known` is the state row when the caller read it already
 * (together with its own reads, lib/db/read-together.ts). `opened`: someone opens this system (a
 * page of it), noted at most once a minute (mirror_state.viewed_at: the background worker loads
 * the most recently opened first); a request over many systems passes false.
 */
export async function systemMirror(
  deps: ViewDeps,
  deviceId: string,
  known?: MirrorState | null,
  options: { opened?: boolean } = {},
): Promise<{ freshness: Freshness; state: MirrorState | null }> {
  const now = deps.now?.() ?? new Date();
  const [state, budgetPerHour] = await Promise.all([known !== undefined ? known : readState(deps.db, deviceId), budgetOf(deps, deviceId)]);
  if (options.opened !== false) {
    // At most one statement a minute per system; a failure only leaves the worker's order as it was.
    await markViewed(deps.db, deviceId, now, state).catch((error: unknown) => log.warn('mirror: could not note a view', { deviceId, error }));
  }
  const policy = policyOf(deps, budgetPerHour);
  // Building the source reads and decrypts the system's API key: only worth it when it is used.
  let source: () => Promise<MirrorSource> = () => deps.source(deviceId);
  const mayStart = (deps.refreshStarts === undefined || deps.refreshStarts.left > 0) && viewRefreshesRunning() < VIEW_REFRESHES_MAX;
  if (mayStart && viewDecision(state, policy, now).start) {
    let built: MirrorSource;
    try {
      built = await deps.source(deviceId);
    } catch (error) {
      if (!state?.refreshedAt) throw error;
      log.warn('mirror source unavailable; serving the last copy', { deviceId, error });
      const kind = failureKindOf(error);
      return {
        freshness: {
          status: 'ready',
          refreshedAt: state.refreshedAt.toISOString(),
          refreshing: false,
          lastError: FAILURE_MESSAGES[kind],
          lastErrorKind: kind,
          retryAt: null,
          lastErrorAt: new Date().toISOString(),
          nextRefreshAt: null,
          deferredBy: null,
        },
        state,
      };
    }
    source = () => Promise.resolve(built);
  }
  const freshness = toFreshness(await ensureFresh(deps.db, deviceId, source, policy, now, state, deps.refreshStarts));
  const within = outsideWithinS({ freshnessMs: deps.freshnessMs, budgetPerHour }, state);
  return { freshness: freshness.status === 'ready' && within !== null ? { ...freshness, outsideWithinS: within } : freshness, state };
}

/** The viewed bound of an outside change for this system's copy (null before a complete re-read). */
export function outsideWithinS(deps: Pick<ViewDeps, 'freshnessMs' | 'budgetPerHour'>, state: MirrorState | null): number | null {
  if (!state?.refreshedAt || !state.refreshEndedAt || state.lastRequests <= 0) return null;
  const rereadSeconds = Math.max(0, (state.refreshEndedAt.getTime() - state.refreshedAt.getTime()) / 1000);
  const bound = outsideChangeBoundS(
    { requestsPerReread: state.lastRequests, rereadSeconds, budgetPerHour: deps.budgetPerHour ?? 0, freshnessS: deps.freshnessMs / 1000, backgroundS: 0 },
    true,
  );
  return bound === null ? null : Math.round(bound);
}
