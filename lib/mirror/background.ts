import 'server-only';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';
import { singleton } from '@/lib/singleton';
import { runBounded } from './bounded';
import { BACKGROUND_CONCURRENCY_DEFAULT, backgroundIntervalSeconds, backgroundQueue } from './policy';
import { refreshSystem, type RefreshOutcome } from './refresh';
import { readStates } from './store';
import type { MirrorSource } from './types';

/**
 * The background cadence (MIRROR_BACKGROUND_S): every instance runs this worker, which loads every
 * connected system never loaded (issue 49: a portfolio of a thousand systems must not wait for
 * each one's first view) and re-reads the copies nobody views once they are older than the
 * cadence. A bounded number at a time (MIRROR_BACKGROUND_CONCURRENCY, against the database pool
 * and the service), the most recently opened first (lib/mirror/policy.ts backgroundQueue), each
 * through the same claim as the views (lease, window, backoff, budget): two instances on one
 * database walk the same order and split it, a claim another instance won is skipped.
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
  /** MIRROR_BACKGROUND_CONCURRENCY: systems read at once by this instance (unset: the default, 4). */
  concurrency?: number;
  now?: () => Date;
}

export interface BackgroundPassResult {
  /** Systems whose copy this pass read (loaded for the first time or re-read). */
  refreshed: string[];
  /** Systems it tried but could not (a failure, or another instance's claim won). */
  skipped: string[];
}

/**
 * One pass: the systems due (never loaded, or older than the cadence) are read in the queue's
 * order, `concurrency` at a time. The plan costs two statements however many systems there are
 * (the systems, every state row).
 */
export async function backgroundPass(deps: BackgroundDeps, shouldStop: () => boolean = () => false): Promise<BackgroundPassResult> {
  const result: BackgroundPassResult = { refreshed: [], skipped: [] };
  const [overrides, deviceIds, states] = await Promise.all([
    deps.budgetOverrides?.() ?? Promise.resolve(new Map<string, number>()),
    deps.systems(),
    readStates(deps.db),
  ]);
  const budgetOf = (deviceId: string) => overrides.get(deviceId) ?? deps.budgetPerHour;
  const planned = deps.now?.() ?? new Date();
  const candidates = deviceIds.map((deviceId) => ({ deviceId, state: states.get(deviceId.toLowerCase()) ?? null, budgetPerHour: budgetOf(deviceId) }));
  const queue = backgroundQueue(candidates, deps.backgroundMs, planned);
  await runBounded(
    queue,
    deps.concurrency ?? BACKGROUND_CONCURRENCY_DEFAULT,
    async (deviceId) => {
      const budgetPerHour = budgetOf(deviceId);
      let outcome: RefreshOutcome;
      try {
        outcome = await refreshSystem(deps.db, deviceId, await deps.source(deviceId), {
          at: deps.now?.() ?? new Date(),
          freshnessMs: deps.freshnessMs,
          windowMs: deps.backgroundMs,
          respectBackoff: true,
          budget: budgetPerHour > 0 ? { perHour: budgetPerHour, enforce: true } : undefined,
          structureEvery: deps.structureEvery,
        });
      } catch (error) {
        log.warn('mirror: background refresh failed', { deviceId, error });
        result.skipped.push(deviceId);
        return;
      }
      (outcome.status === 'refreshed' ? result.refreshed : result.skipped).push(deviceId);
    },
    shouldStop,
  );
  if (result.refreshed.length > 0) log.info('mirror: background pass read systems', { refreshed: result.refreshed.length, skipped: result.skipped.length, due: queue.length });
  return result;
}

/** How often the worker looks: a tenth of the cadence, between 1 s and 1 min. */
export function backgroundIntervalMs(backgroundMs: number): number {
  return Math.round(backgroundIntervalSeconds(backgroundMs / 1000) * 1000);
}

/** The first pass starts this soon after the process (a portfolio's first loads must not wait for the interval). */
export const FIRST_PASS_DELAY_MS = 2_000;

const worker = singleton('mirror-background-worker', () => ({
  timer: undefined as NodeJS.Timeout | undefined,
  first: undefined as NodeJS.Timeout | undefined,
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
  worker.first = setTimeout(run, Math.min(FIRST_PASS_DELAY_MS, backgroundIntervalMs(backgroundMs)));
  worker.first.unref();
}

/** Stops the worker (shutdown): no new pass, and the current one stops after the systems in hand. */
export async function stopMirrorWorker(): Promise<void> {
  worker.stopping = true;
  clearInterval(worker.timer);
  clearTimeout(worker.first);
  worker.timer = undefined;
  await worker.pass;
}
