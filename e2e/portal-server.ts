// The portals the e2e suite runs against (issue 46): each Playwright worker starts its own
// `next start` on its own port, and each spec file gets a portal of its own on a fresh copy of one
// prepared data directory (the "seed world": demo logins, the sandbox's demo data, the demo systems
// connected and loaded), so no spec reads another's bookings, accounts or settings.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
/** Where every e2e server writes its log (scripts/e2e-log-scan.ts reads them all). */
export const E2E_LOG_DIR = path.join(ROOT, '.data', 'e2e-logs');
/** The prepared data directory each spec's portal starts from a copy of (e2e/global-setup.ts). */
export const SEED_DATA_DIR = path.join(ROOT, '.data', 'e2e-seed');

/** The sandbox's fixtures in the seed world, credentials included (e2e/global-setup.ts writes them). */
export const SEED_FIXTURES_FILE = path.join(ROOT, '.data', 'e2e-seed-fixtures.json');

/** The first worker's port; worker n listens on BASE_PORT + 10·n (specs use PORT + 1 and PORT + 50). */
export const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
/** Where the seed world is made: a port no worker uses. */
export const SEED_PORT = BASE_PORT + 99;

export const E2E_SECRETS = {
  AUTH_SECRET: process.env.E2E_AUTH_SECRET ?? 'e2e-auth-secret-0123456789abcdef0123456789',
  ENCRYPTION_KEY: process.env.E2E_ENCRYPTION_KEY ?? 'ZTJlLWVuY3J5cHRpb24ta2V5LTAxMjM0NTY3ODlhYmM=',
  METRICS_TOKEN: process.env.E2E_METRICS_TOKEN ?? 'e2e-metrics-token-0123456789abcdef',
} as const;

/** The environment of an e2e portal: the production build in demo mode, short enough settle times. */
export function portalEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...E2E_SECRETS,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORTAL_URL: `http://localhost:${port}`,
    // The built-in sandbox under next start (production) only when asked for.
    DEMO_MODE: '1',
    // Short enough that e2e/booking.spec.ts can watch a booking whose answer timed out be settled.
    SERVICE_TIMEOUT_MS: process.env.SERVICE_TIMEOUT_MS ?? '4000',
    RECONCILE_UNKNOWN_AFTER_S: process.env.RECONCILE_UNKNOWN_AFTER_S ?? '5',
    LOG_LEVEL: 'info',
  };
  // A DATABASE_URL of the caller's (CI sets TEST_DATABASE_URL only, but a developer's shell may) is not this portal's.
  delete env.DATABASE_URL;
  for (const name of ['TEST_PARALLEL_INDEX', 'TEST_WORKER_INDEX']) delete env[name];
  return env;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RunningPortal {
  port: number;
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Resolves once the log holds a line with this text (or rejects at the timeout). */
  logLine(text: string, timeoutMs?: number): Promise<void>;
  /** Ends the process group: SIGTERM and wait (a clean shutdown), or SIGKILL (its data is thrown away). */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

let started = 0;

/**
 * A portal an earlier run left behind on this port (a worker that died without its teardown) is
 * ended first: its process group id is kept next to the data directories.
 */
function endLeftover(port: number): string {
  const pidFile = path.join(ROOT, '.data', `e2e-${port}.pid`);
  if (existsSync(pidFile)) {
    const pid = Number.parseInt(readFileSync(pidFile, 'utf8'), 10);
    try {
      if (pid > 0) process.kill(-pid, 'SIGKILL');
    } catch {
      // long gone
    }
    rmSync(pidFile, { force: true });
  }
  return pidFile;
}

/** `next start` on the port over the data directory, once /api/health answers ok. */
export async function startPortal(port: number, dataDir: string, label: string): Promise<RunningPortal> {
  mkdirSync(E2E_LOG_DIR, { recursive: true });
  const pidFile = endLeftover(port);
  started += 1;
  const logFile = path.join(E2E_LOG_DIR, `${label}-${port}-${process.pid}-${started}.log`);
  const out = createWriteStream(logFile);
  const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'start', '--port', String(port)], {
    cwd: ROOT,
    env: portalEnv(port, dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid) writeFileSync(pidFile, String(child.pid));
  child.once('exit', () => rmSync(pidFile, { force: true }));
  let text = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out.write(chunk);
    text += chunk.toString();
    for (const check of waiters) check();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => out.end());

  const logLine = (needle: string, timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`the e2e portal on ${port} did not log "${needle}" within ${timeoutMs} ms (log: ${logFile})`));
      }, timeoutMs);
      const check = () => {
        if (!text.includes(needle)) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });

  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGKILL') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, signal);
    } catch {
      return;
    }
    const gone = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
    if (!gone) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
      await exited;
    }
  };

  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the e2e portal on ${port} exited with ${child.exitCode} (log: ${logFile})`);
    const health = await fetch(`${url}/api/health`).then((r) => (r.ok ? (r.json() as Promise<{ status?: string }>) : null)).catch(() => null);
    if (health?.status === 'ok') break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the e2e portal on ${port} was not healthy within 120 s (log: ${logFile})`);
    }
    await sleep(200);
  }
  return { port, url, dataDir, child, logLine, stop };
}

/** A fresh copy of the seed world for one portal. */
export function freshDataDir(port: number): string {
  const dataDir = path.join(ROOT, '.data', `e2e-${port}`);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}.lock`, { force: true });
  if (!existsSync(SEED_DATA_DIR)) throw new Error(`no seed world in ${SEED_DATA_DIR}: e2e/global-setup.ts makes it before the workers start`);
  cpSync(SEED_DATA_DIR, dataDir, { recursive: true });
  return dataDir;
}

/** The log line a demo portal writes once the sandbox will deliver its webhooks (lib/events/sandbox-webhook.ts). */
export const WEBHOOK_REGISTERED = 'webhook registered with the sandbox';
