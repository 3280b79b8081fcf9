import 'server-only';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';
import { singleton } from '@/lib/singleton';
import { backgroundIntervalSeconds, decideRefresh } from './policy';
import { refreshSystem, type RefreshOutcome } from './refresh';
import { readState } from './store';
import type { MirrorSource } from './types';

/**
 * The background cadence (MIRROR_BACKGROUND_S): every instance runs this worker, which re-reads
 * the copies of the portal's systems nobody views once they are older than the cadence, so that
 * a first view is never very old. One system at a time, through the same claim as the views
 * (lease, window, backoff, budget), so instances never double one another's work. A system never
 * loaded is left to its first view, which shows the loading progress.
 */
export interface BackgroundDeps {
  db: Database;
  /** The device ids of the portal's connected systems (lib/systems). */
  systems: () => Promise<string[]>;
  /** Builds the upstream source of a system's mirror (may fail: no key). */
  source: (deviceId: string) => Promise<MirrorSource>;
  /** MIRROR_BACKGROUND_S in ms: the window of the background claim. */
  backgroundMs: number;
  /** MIRROR_FRESHNESS_S in ms: the base of the backoff after a failure. */
  freshnessMs: number;
  /** MIRROR_REQUEST_BUDGET_PER_HOUR; 0: none. */
  budgetPerHour: number;
  /** The budgets admins set per system, in place of budgetPerHour. */
  budgetOverrides?: () => Promise<ReadonlyMap<string, number>>;
  /** MIRROR_STRUCTURE_EVERY (unset: every time). */
  structureEvery?: number;
  now?: () => Date;
}

export interface BackgroundPassResult {
  /** Systems whose copy this pass re-read. */
  refreshed: string[];
  /** Systems it tried but could not (a failure, or another instance's claim won). */
  skipped: string[];
}

/** One pass over the systems: each one whose copy is older than the cadence is refreshed, one after another. */
export async function backgroundPass(deps: BackgroundDeps, shouldStop: () => boolean = () => false): Promise<BackgroundPassResult> {
  const result: BackgroundPassResult = { refreshed: [], skipped: [] };
  const overrides = (await deps.budgetOverrides?.()) ?? new Map<string, number>();
  for (const deviceId of await deps.systems()) {
    if (shouldStop()) break;
    const budgetPerHour = overrides.get(deviceId) ?? deps.budgetPerHour;
    const policy = { windowMs: deps.backgroundMs, budgetPerHour };
    const now = deps.now?.() ?? new Date();
    const state = await readState(deps.db, deviceId);
    if (!state?.refreshedAt) continue;
    if (!decideRefresh(state, policy, now).start) continue;
    let outcome: RefreshOutcome;
    try {
      outcome = await refreshSystem(deps.db, deviceId, await deps.source(deviceId), {
        at: now,
        freshnessMs: deps.freshnessMs,
        windowMs: deps.backgroundMs,
        respectBackoff: true,
        budget: budgetPerHour > 0 ? { perHour: budgetPerHour, enforce: true } : undefined,
        structureEvery: deps.structureEvery,
      });
    } catch (error) {
      log.warn('mirror: background refresh failed', { deviceId, error });
      result.skipped.push(deviceId);
      continue;
    }
    (outcome.status === 'refreshed' ? result.refreshed : result.skipped).push(deviceId);
  }
  if (result.refreshed.length > 0) log.info('mirror: background refresh of unviewed systems', { refreshed: result.refreshed.length });
  return result;
}

/** How often the worker looks: a tenth of the cadence, between 1 s and 1 min. */
export function backgroundIntervalMs(backgroundMs: number): number {
  return Math.round(backgroundIntervalSeconds(backgroundMs / 1000) * 1000);
}

const worker = singleton('mirror-background-worker', () => ({
  timer: undefined as NodeJS.Timeout | undefined,
  pass: undefined as Promise<void> | undefined,
  stopping: false,
}));

/** Starts the worker of this process (one timer, unref'd); `backgroundMs` 0 leaves it off. */
export function startMirrorWorker(deps: () => Promise<BackgroundDeps>, backgroundMs: number): void {
  if (worker.timer || backgroundMs <= 0) return;
  worker.stopping = false;
  const run = () => {
    if (worker.pass || worker.stopping) return;
    worker.pass = deps()
      .then((d) => backgroundPass(d, () => worker.stopping))
      .then(() => undefined)
      .catch((error: unknown) => log.warn('mirror: background pass failed', { error }))
      .finally(() => {
        worker.pass = undefined;
      });
  };
  const timer = setInterval(run, backgroundIntervalMs(backgroundMs));
  timer.unref();
  worker.timer = timer;
}

/** Stops the worker (shutdown): no new pass, and the current one stops after the system in hand. */
export async function stopMirrorWorker(): Promise<void> {
  worker.stopping = true;
  clearInterval(worker.timer);
  worker.timer = undefined;
  await worker.pass;
}
