import 'server-only';
import { log } from '@/lib/log';
import { singleton } from '@/lib/singleton';
import { runRetention, type RetentionDeps } from './retention';

/** Every instance runs the worker; the job's lease lets one of them work at a time. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
/** The first run waits for the start to settle (migrations, the demo's seeding). */
export const RETENTION_FIRST_RUN_MS = 30 * 1000;

const worker = singleton('retention-worker', () => ({
  timers: [] as NodeJS.Timeout[],
  run: undefined as Promise<void> | undefined,
  stopping: false,
}));

/** Starts this process's retention worker: soon after start, then hourly (timers unref'd). */
export function startRetentionWorker(deps: () => Promise<RetentionDeps>): void {
  if (worker.timers.length > 0) return;
  worker.stopping = false;
  const run = () => {
    if (worker.run || worker.stopping) return;
    worker.run = deps()
      .then((d) => runRetention(d, { shouldStop: () => worker.stopping }))
      .then((result) => {
        if (result.status === 'done' && Object.keys(result.counts).length > 0) log.info('retention: anonymised', { counts: result.counts, complete: result.complete });
      })
      .catch((error: unknown) => log.warn('retention: run failed', { error }))
      .finally(() => {
        worker.run = undefined;
      });
  };
  const first = setTimeout(run, RETENTION_FIRST_RUN_MS);
  const every = setInterval(run, RETENTION_INTERVAL_MS);
  first.unref();
  every.unref();
  worker.timers = [first, every];
}

/** Stops the worker (shutdown): no new run, and the current one stops after the batch in hand. */
export async function stopRetentionWorker(): Promise<void> {
  worker.stopping = true;
  for (const timer of worker.timers) clearTimeout(timer);
  worker.timers = [];
  await worker.run;
}
