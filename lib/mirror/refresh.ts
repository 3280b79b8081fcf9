import 'server-only';
import type { SqlRunner } from '@/lib/db/sql-runner';
import { log } from '@/lib/log';
import { claimRefresh, completeRefresh, failRefresh, insertPage, readState, recordProgress } from './store';
import type { MirrorSource, MirrorState } from './types';

/** A refresh not finished after this long is presumed dead and may be taken over. */
export const REFRESH_LEASE_SECONDS = 300;
const COLLECTIONS = ['resources', 'timeSchedules', 'userGroups', 'reservations'] as const;

export type RefreshOutcome = { status: 'refreshed'; pages: number } | { status: 'busy' };

const globalForMirror = globalThis as typeof globalThis & {
  __mirrorRefreshes?: Map<string, Promise<RefreshOutcome>>;
};
const inflight: Map<string, Promise<RefreshOutcome>> = (globalForMirror.__mirrorRefreshes ??= new Map<string, Promise<RefreshOutcome>>());

/**
 * Copies every collection of one system into a new generation, the four collections side by side
 * and each one page by page (each page's insert overlaps the next page's fetch), then switches
 * readers over. One refresh per system at a time: in this process by sharing the promise, across
 * processes by the lease in mirror_state.
 */
export function refreshSystem(sql: SqlRunner, deviceId: string, source: MirrorSource): Promise<RefreshOutcome> {
  const running = inflight.get(deviceId);
  if (running) return running;
  const refresh = runRefresh(sql, deviceId, source).finally(() => inflight.delete(deviceId));
  inflight.set(deviceId, refresh);
  return refresh;
}

async function runRefresh(sql: SqlRunner, deviceId: string, source: MirrorSource): Promise<RefreshOutcome> {
  const current = await claimRefresh(sql, deviceId, REFRESH_LEASE_SECONDS);
  if (current === null) return { status: 'busy' };
  const generation = current + 1;
  const startedAt = new Date();
  let pages = 0;
  let failed = false;
  // One chain of writes (the database takes them one at a time anyway); the fetches of the four
  // collections run side by side, since only each collection's own pages must follow one another.
  let writes: Promise<void> = Promise.resolve();
  const write = (kind: (typeof COLLECTIONS)[number], page: readonly unknown[]): Promise<void> => {
    pages += 1;
    const done = pages;
    const next = writes.then(() => insertPage(sql, kind, deviceId, generation, page)).then(() => recordProgress(sql, deviceId, done));
    // A failed write fails the chain after it, so every later write is skipped.
    writes = next;
    // Observed by the collection's loop; this keeps a failure meanwhile from being "unhandled".
    next.catch(() => undefined);
    return next;
  };
  const copy = async (kind: (typeof COLLECTIONS)[number]): Promise<void> => {
    try {
      let previous: Promise<void> = Promise.resolve();
      for await (const page of source[kind](deviceId)) {
        // The insert of page n overlaps the fetch of page n+1, and no more than that.
        await previous;
        if (failed) return;
        previous = write(kind, page);
      }
      await previous;
    } catch (error) {
      failed = true;
      throw error;
    }
  };
  try {
    const results = await Promise.allSettled(COLLECTIONS.map(copy));
    await writes;
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (rejected) throw rejected.reason;
    await completeRefresh(sql, deviceId, generation, startedAt, pages);
    return { status: 'refreshed', pages };
  } catch (error) {
    await writes.catch(() => undefined);
    const message = error instanceof Error ? error.message : 'refresh failed';
    await failRefresh(sql, deviceId, generation, message).catch((cleanupError: unknown) =>
      log.error('mirror: could not record a failed refresh', { deviceId, error: cleanupError }),
    );
    throw error;
  }
}

export type MirrorStatus =
  | { status: 'loading'; pagesFetched: number; lastError: string | null }
  | { status: 'ready'; refreshedAt: Date; refreshing: boolean; lastError: string | null; lastErrorAt: Date | null };

/**
 * True when the system's copy is missing or older than the freshness window. The next refresh is
 * due a window after the last one *ended*: one that takes longer than the window (a large system
 * under load) must not start the next at once, or the upstream is paged without pause.
 */
export function refreshDue(state: MirrorState | null, freshnessMs: number, now: Date): boolean {
  const loaded = state?.refreshedAt ?? null;
  const due = state?.refreshEndedAt ?? loaded;
  return !loaded || !due || now.getTime() - due.getTime() > freshnessMs;
}

/**
 * Stale-while-revalidate: never-loaded systems start loading (the caller shows progress), stale
 * ones are served as they are while one refresh runs in the background. `known` is the state the
 * caller has just read, to save reading it again.
 */
export async function ensureFresh(
  sql: SqlRunner,
  deviceId: string,
  source: () => MirrorSource | Promise<MirrorSource>,
  freshnessMs: number,
  now = new Date(),
  known?: MirrorState | null,
): Promise<MirrorStatus> {
  const state: MirrorState | null = known !== undefined ? known : await readState(sql, deviceId);
  const loaded = state?.refreshedAt ?? null;
  let refreshing = state?.refreshing ?? false;
  if (refreshDue(state, freshnessMs, now) && !inflight.has(deviceId)) {
    refreshing = true;
    void Promise.resolve(source())
      .then((s) => refreshSystem(sql, deviceId, s))
      .catch((error: unknown) => log.warn('mirror refresh failed', { deviceId, error }));
  }
  if (!loaded) {
    return { status: 'loading', pagesFetched: state?.pagesFetched ?? 0, lastError: state?.lastError ?? null };
  }
  return {
    status: 'ready',
    refreshedAt: loaded,
    refreshing: refreshing || inflight.has(deviceId),
    lastError: state?.lastError ?? null,
    lastErrorAt: state?.lastErrorAt ?? null,
  };
}

/** Resolves when the system's refresh in this process (if any) has settled. */
export async function waitForRefresh(deviceId: string): Promise<void> {
  await inflight.get(deviceId)?.catch(() => undefined);
}
