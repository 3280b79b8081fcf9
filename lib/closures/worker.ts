import 'server-only';
import { log } from '@/lib/log';
import { singleton } from '@/lib/singleton';
import { CLOSURE_LEASE_SECONDS, runClosure, runClosureJob, type ClosureDeps } from './closures';
import { claimClosures } from './store';

/** How often the worker looks for closures whose cancellations are not all sent. */
export const CLOSURE_WORKER_INTERVAL_MS = 30_000;
const BATCH = 5;

/** The process's closure jobs: the worker's timer, the jobs running, and whether it is stopping. */
const worker = singleton('closure-worker', () => ({
  timer: undefined as NodeJS.Timeout | undefined,
  running: new Set<Promise<void>>(),
  stopping: false,
}));

const stopping = () => worker.stopping;

function track(job: Promise<void>): Promise<void> {
  worker.running.add(job);
  void job.finally(() => worker.running.delete(job));
  return job;
}

/**
 * One pass: claims closures still 'cancelling' whose lease is free or expired (another instance's
 * that died, or this process's before a restart) and continues them; the derived Idempotency-Keys
 * make a booking already sent answer its first answer, with no second upstream call.
 */
export async function resumeClosures(deps: ClosureDeps, shouldStop: () => boolean = () => false): Promise<number> {
  const claimed = await claimClosures(deps.db, CLOSURE_LEASE_SECONDS, BATCH);
  for (const row of claimed) {
    if (shouldStop()) break;
    await runClosure(deps, row, shouldStop);
  }
  return claimed.length;
}

/** Starts a new closure's job in the background; the shutdown waits for it (it stops between bookings). */
export function startClosureJob(deps: ClosureDeps, closureId: string): Promise<void> {
  return track(runClosureJob(deps, closureId, stopping));
}

/** Runs resumeClosures at start and every intervalMs (one timer per process, unref'd). */
export function startClosureWorker(deps: () => Promise<ClosureDeps>, intervalMs = CLOSURE_WORKER_INTERVAL_MS): void {
  if (worker.timer) return;
  worker.stopping = false;
  let pass: Promise<void> | undefined;
  const run = () => {
    if (pass || worker.stopping) return;
    pass = track(
      deps()
        .then((d) => resumeClosures(d, stopping))
        .then(() => undefined)
        .catch((error: unknown) => log.warn('closure pass failed', { error }))
        .finally(() => {
          pass = undefined;
        }),
    );
  };
  const first = setTimeout(run, 1_000);
  first.unref();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  worker.timer = timer;
}

/** Stops the worker (shutdown): jobs stop after the booking in hand and let go of their closures. */
export async function stopClosureWorker(): Promise<void> {
  worker.stopping = true;
  clearInterval(worker.timer);
  worker.timer = undefined;
  await Promise.all([...worker.running]);
}
