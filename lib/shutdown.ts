import 'server-only';
import { closeDb } from '@/lib/db';
import { stopEventBus } from '@/lib/events/bus';
import { endAllEventStreams } from '@/lib/events/sse';
import { log } from '@/lib/log';
import { stopReconciler } from '@/lib/reservations/reconcile';
import { stopClosureWorker } from '@/lib/closures/worker';
import { stopMirrorWorker } from '@/lib/mirror/background';
import { stopMountedSandbox } from '@/lib/sandbox-mount';
import { singleton } from '@/lib/singleton';
import { stopMailWorker } from '@/lib/mail/running-worker';
import { stopRetentionWorker } from '@/lib/personal-data/worker';

/** The process is gone by then, whatever still runs (orchestrators commonly SIGKILL after 10 s). */
export const SHUTDOWN_DEADLINE_MS = 9_000;

type ExitSignal = 'SIGTERM' | 'SIGINT';

export interface ShutdownSteps {
  /** Tells every open SSE stream to reconnect elsewhere (`event: end`, reason `restart`) and closes it; returns how many. */
  endStreams: () => number;
  /** Stops the background workers: reconciler, closure jobs, mirror refreshes, mail worker, retention job, mounted sandbox, event-bus listener. */
  stopWorkers: () => Promise<void>;
  /** Resolves when the HTTP server has stopped and finished its requests (Next's own cleanup), or never. */
  serverDone: Promise<number | undefined>;
  closeDatabase: () => Promise<void>;
  exit: (code: number) => void;
  deadlineMs?: number;
}

const timeout = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * A portal process's shutdown: streams told to reconnect, workers stopped, then — once the HTTP
 * server has finished its requests, or at the deadline — the database closed and the process ended.
 */
export async function runShutdown(signal: ExitSignal, steps: ShutdownSteps): Promise<void> {
  const started = Date.now();
  const deadline = steps.deadlineMs ?? SHUTDOWN_DEADLINE_MS;
  const left = () => Math.max(0, deadline - (Date.now() - started));
  const streams = steps.endStreams();
  log.info('shutting down', { signal, streams });
  await Promise.race([steps.stopWorkers().catch((error: unknown) => log.warn('workers did not stop cleanly', { error })), timeout(left() / 3)]);
  // The database outlives the requests still running; give closing it the last second.
  const code = await Promise.race([steps.serverDone, timeout(Math.max(0, left() - 1_000)).then(() => undefined)]);
  await Promise.race([steps.closeDatabase().catch((error: unknown) => log.warn('database did not close cleanly', { error })), timeout(left())]);
  log.info('shut down', { signal, ms: Date.now() - started });
  steps.exit(code ?? (signal === 'SIGINT' ? 130 : 143));
}

async function stopPortalWorkers(): Promise<void> {
  await Promise.all([stopReconciler(), stopClosureWorker(), stopMirrorWorker(), stopMailWorker(), stopRetentionWorker(), stopEventBus(), stopMountedSandbox()]);
}

/**
 * Hooks the portal's shutdown into `next start`'s: Next handles SIGTERM/SIGINT itself
 * (start-server.js: `server.close()`, which stops accepting connections and waits for the open
 * ones — an SSE stream never ends by itself, so without this it would wait forever — then
 * `nextServer.close()` and `process.exit(143/130)`). This listener runs after Next's in the same
 * signal: it ends the streams with `restart` so Next's `server.close()` can complete, stops the
 * workers, and holds Next's `process.exit` until the database is closed. With
 * NEXT_MANUAL_SIG_HANDLE set Next does nothing on signals and this exits on its own.
 */
export function installShutdown(): void {
  const state = singleton('shutdown', () => ({ installed: false, running: false }));
  if (state.installed) return;
  state.installed = true;
  const onSignal = (signal: ExitSignal) => {
    if (state.running) return;
    state.running = true;
    const realExit = process.exit.bind(process);
    let nextExited: (code: number | undefined) => void = () => undefined;
    const serverDone = new Promise<number | undefined>((resolve) => (nextExited = resolve));
    // eslint-disable-next-line no-restricted-properties -- Next's own switch, read as Next reads it
    if (process.env.NEXT_MANUAL_SIG_HANDLE) nextExited(undefined);
    else {
      process.exit = ((code?: number | string | null) => {
        nextExited(typeof code === 'number' ? code : undefined);
        return undefined as never;
      });
    }
    // A last resort: whatever hangs, the process ends before an orchestrator's SIGKILL.
    setTimeout(() => realExit(signal === 'SIGINT' ? 130 : 143), SHUTDOWN_DEADLINE_MS + 500).unref();
    void runShutdown(signal, {
      endStreams: () => endAllEventStreams('restart'),
      stopWorkers: stopPortalWorkers,
      serverDone,
      closeDatabase: closeDb,
      exit: realExit,
    });
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}
