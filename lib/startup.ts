import 'server-only';
import { seedDemoConnection, seedDemoUsers } from '@/lib/auth/demo-seed';
import { getDb } from '@/lib/db';
import { env, startupProblem } from '@/lib/env';
import { startEventBus } from '@/lib/events/bus';
import { registerSandboxWebhook } from '@/lib/events/sandbox-webhook';
import { log } from '@/lib/log';
import { getMountedSandbox, mountedSandboxDirectory, mountedSandboxFetch } from '@/lib/sandbox-mount';
import { startReconciler } from '@/lib/reservations/reconcile';
import { startClosureWorker } from '@/lib/closures/worker';
import { startMirrorWorker } from '@/lib/mirror/background';
import { startRetentionWorker } from '@/lib/personal-data/worker';
import { getSecrets } from '@/lib/secrets';
import { markStartupTask } from '@/lib/startup-status';
import { installShutdown } from '@/lib/shutdown';
import {
  generateApiKey,
  observeDatabaseQueries,
  portalClosureDeps,
  portalMirrorWorkerDeps,
  portalReservationDeps,
  portalRetentionDeps,
  startMailWorker,
} from '@/lib/wiring';

/** Attempts at connecting the demo systems; the server must be listening first (it calls itself). */
const DEMO_CONNECT_ATTEMPTS = 30;
const DEMO_CONNECT_DELAY_MS = 2_000;

/**
 * Start-up work of a server process: open and migrate the database so the first request
 * does not pay for it, and in sandbox mode start the mounted sandbox and seed the demo logins.
 * A failure is logged, not fatal: /api/health reports it and the next request retries.
 */
export async function startPortal(): Promise<void> {
  const problem = startupProblem(env);
  if (problem) {
    // Printed as well as logged: this is the line an operator must see before the process ends.
    log.error('refusing to start', { reason: problem });
    console.error(`\nThe portal will not start: ${problem}\n`);
    process.exit(1);
  }
  // SIGTERM/SIGINT: streams told to reconnect, workers stopped, database closed (lib/shutdown.ts).
  installShutdown();
  // Each database statement counted for the request that made it (Server-Timing, when on).
  observeDatabaseQueries();
  if (env.demoMode && env.NODE_ENV === 'production') {
    log.warn('DEMO MODE: serving the built-in sandbox and demo logins in production; never use this for real residents');
  }
  try {
    const handle = await getDb();
    log.info('database ready', { database: handle.kind, service: env.serviceMode });
  } catch (error) {
    log.error('database unavailable at start', { error });
    return;
  }
  try {
    // PostgreSQL: the LISTEN connection that brings other instances' events to this one's streams.
    await startEventBus();
  } catch (error) {
    log.error('event bus did not start; it retries on first use', { error });
  }
  if (env.demoMode) {
    // Seeds the demo data on the first start only, then runs the sandbox's queue and webhook workers.
    try {
      await getMountedSandbox();
      log.info('sandbox mounted', { path: '/sandbox' });
    } catch (error) {
      log.error('sandbox failed to start', { error });
    }
    try {
      await seedDemoUsers((await getDb()).db);
    } catch (error) {
      log.error('demo logins could not be created', { error });
    }
    // In the background: the connection reads the sandbox's directory in-process and generates the
    // keys over HTTP, through this very server; the webhook is registered in-process (the control
    // routes and the fixtures answer only a signed-in admin).
    // Each reports to /api/health when it gives up (lib/startup-status.ts).
    void connectDemoSystems();
    markStartupTask('webhookRegistration', 'running');
    void registerSandboxWebhook(mountedSandboxFetch).then((registered) => markStartupTask('webhookRegistration', registered ? 'done' : 'failed'));
  }
  // Requests whose outcome never arrived are settled from the reservations (timer unref'd).
  startReconciler(portalReservationDeps, { afterSeconds: env.RECONCILE_AFTER_S, unknownAfterSeconds: env.RECONCILE_UNKNOWN_AFTER_S });
  // Room closures whose cancellations were not all sent (a restart mid-way) are continued.
  startClosureWorker(portalClosureDeps);
  // Copies of systems nobody views are re-read at the slower background cadence (timer unref'd).
  startMirrorWorker(portalMirrorWorkerDeps, env.MIRROR_BACKGROUND_S * 1000);
  // Personal data past its retention period is anonymised: soon after start, then hourly, one instance at a time (timers unref'd).
  startRetentionWorker(portalRetentionDeps);
  // Residents' e-mail from the outbox: sent over SMTP, or kept for the E-mails page without SMTP_URL.
  try {
    await startMailWorker();
  } catch (error) {
    log.error('mail worker did not start', { error });
  }
}

async function connectDemoSystems(): Promise<void> {
  markStartupTask('demoConnection', 'running');
  for (let attempt = 1; attempt <= DEMO_CONNECT_ATTEMPTS; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, DEMO_CONNECT_DELAY_MS).unref());
    try {
      const [{ db }, { encryptionKey }] = await Promise.all([getDb(), getSecrets()]);
      await seedDemoConnection(db, { directory: mountedSandboxDirectory, generate: generateApiKey, encryptionKey });
      markStartupTask('demoConnection', 'done');
      return;
    } catch (error) {
      if (attempt === DEMO_CONNECT_ATTEMPTS) {
        log.warn('demo systems not connected; will retry at the next start', { error });
        markStartupTask('demoConnection', 'failed');
      }
    }
  }
}
