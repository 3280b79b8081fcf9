import 'server-only';
import { singleton } from '@/lib/singleton';

/**
 * This process's mail worker as the rest of the process holds it: started once (lib/wiring.ts),
 * nudged by a new outbox row, stopped at shutdown. Its own module, apart from the worker, so that
 * neither the outbox nor the shutdown loads the renderer or the SMTP client.
 */
export interface RunningMailWorker {
  start(): void;
  /** Bound to the worker (passed to timers as it is). */
  kick: () => void;
  stop(): Promise<void>;
}

// On globalThis: the worker started by instrumentation is the one route bundles nudge.
const state = () => singleton('mail-worker', () => ({ worker: null as RunningMailWorker | null }));

/** The worker this process runs, if one was made. */
export function runningMailWorker(): RunningMailWorker | null {
  return state().worker;
}

/** Makes `worker` this process's mail worker (once); returns the one it runs. */
export function setRunningMailWorker(worker: RunningMailWorker): RunningMailWorker {
  return (state().worker ??= worker);
}

/**
 * The in-process nudge from a new outbox row to the worker. The row is written inside its
 * transaction, so the kick waits a moment for the commit; a kick that comes too early finds
 * nothing, and the worker's poll sends the row a few seconds later anyway.
 */
export function scheduleMailKick(delayMs = 150): void {
  const { worker } = state();
  if (!worker) return;
  setTimeout(worker.kick, delayMs).unref();
  // Once more, for a transaction that took longer to commit.
  setTimeout(worker.kick, delayMs + 1_000).unref();
}

/** Stops the worker, if this process runs one (shutdown). */
export async function stopMailWorker(): Promise<void> {
  await state().worker?.stop();
}
