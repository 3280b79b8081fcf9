// Process, database and HTTP plumbing shared by scripts/test-scale.ts and scripts/test-reliability.ts.
// The portal is treated as a black box: real `next start` processes, a real standalone sandbox, a
// real PostgreSQL. Every process started here is killed by its id on exit, even on failure.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, createWriteStream } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { SandboxFixtures } from '@/sandbox';
import { sleep } from '../bench/http';

export const root = path.resolve(import.meta.dirname, '..', '..');

const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

export function onCleanup(fn: () => Promise<void>): void {
  cleanups.unshift(fn);
}

/** Kills every process started here (its whole process group, by id) and runs the cleanups. */
export async function cleanup(): Promise<void> {
  for (const child of children.splice(0)) stopProcess(child);
  for (const fn of cleanups.splice(0)) await fn().catch((error: unknown) => console.error('cleanup failed:', error));
}

export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    // Detached children lead their own group: `next start` forks workers, all of them go.
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export function secret(bytes = 32): string {
  return randomBytes(bytes).toString('base64');
}

export interface Started {
  child: ChildProcess;
  logFile: string;
}

const logNames = new Map<string, number>();

/** Starts a command in its own process group, output to a log file under test-results/. */
export function start(name: string, command: string, args: string[], env: Record<string, string>): Started {
  const logDir = path.join(root, 'test-results', 'scale-logs');
  mkdirSync(logDir, { recursive: true });
  // A process started again under the same name (a restart) writes a second log, not over the first.
  const n = (logNames.get(name) ?? 0) + 1;
  logNames.set(name, n);
  const logFile = path.join(logDir, n === 1 ? `${name}.log` : `${name}-${n}.log`);
  const out = createWriteStream(logFile);
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  children.push(child);
  return { child, logFile };
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000, everyMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const ok = await check().catch((error: unknown) => {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      last = `${error instanceof Error ? error.message : String(error)}${cause}`;
      return false;
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? ` (last: ${last})` : ''}`);
    await sleep(everyMs);
  }
}


function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the portal unless .next is newer than every source file (e.g. the e2e step just built it). */
export async function ensureBuild(): Promise<void> {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  const sources = ['app', 'lib', 'components', 'proxy.ts', 'instrumentation.ts', 'next.config.mjs', 'package.json'];
  const newest = Math.max(...sources.map((s) => path.join(root, s)).filter(existsSync).map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)));
  if (existsSync(buildId) && statSync(buildId).mtimeMs > newest) {
    console.log('== reusing the production build in .next');
    return;
  }
  console.log('== building the portal (next build)');
  const { child } = start('next-build', 'npx', ['next', 'build'], {});
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error('next build failed (test-results/scale-logs/next-build.log)');
}

/** A fresh database on TEST_DATABASE_URL's server, dropped at cleanup. */
export async function createDatabase(adminUrl: string, prefix: string): Promise<{ name: string; url: string; admin: () => Promise<pg.Client> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    return client;
  };
  const c = await admin();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  onCleanup(async () => {
    const d = await admin();
    await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await d.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), admin };
}


/** A standalone sandbox on `port` with fresh data; `options.systems` sizes a `portfolio`, `latencyMs` slows every answer. */
export async function startSandbox(port: number, preset: 'tiny' | 'demo' | 'portfolio', options: { systems?: number; latencyMs?: number } = {}): Promise<{ url: string; fixtures: SandboxFixtures; started: Started }> {
  const dataDir = path.join(root, '.data', `scale-sandbox-${port}`);
  // Fresh data every run, as in CI: bookings a previous run left would fill apartments' quotas.
  rmSync(dataDir, { recursive: true, force: true });
  const extra = [...(options.systems !== undefined ? ['--systems', String(options.systems)] : []), ...(options.latencyMs !== undefined ? ['--latency', String(options.latencyMs)] : [])];
  const started = start(`sandbox-${port}`, 'npx', ['tsx', 'sandbox/server.ts', '--port', String(port), '--preset', preset, '--seed', '1', '--data-dir', dataDir, ...extra], {
    DATABASE_URL: '',
  });
  const url = `http://127.0.0.1:${port}`;
  let fixtures: SandboxFixtures | undefined;
  await waitFor(`the sandbox on ${port}`, async () => {
    if (started.child.exitCode !== null) throw new Error(`the sandbox exited with ${started.child.exitCode} (${started.logFile})`);
    const response = await fetch(`${url}/_sandbox/fixtures`, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`fixtures answered ${response.status}`);
    fixtures = (await response.json()) as SandboxFixtures;
    return true;
  }, 180_000); // a loaded machine (cores shared) may take over a minute to start tsx and PGlite
  if (!fixtures) throw new Error('no fixtures');
  return { url, fixtures, started };
}

export interface PortalConfig {
  databaseUrl: string;
  sandboxUrl: string;
  fixtures: SandboxFixtures;
  webhookSecret: string;
  authSecret: string;
  encryptionKey: string;
}

/** The settings that point a portal at the standalone sandbox as its reservation service (remote mode). */
export function sandboxServiceEnv(sandboxUrl: string, fixtures: SandboxFixtures): Record<string, string> {
  return {
    SERVICE_BASE_URL: sandboxUrl,
    SERVICE_TOKEN_URL: `${sandboxUrl}${fixtures.tokenPath}`,
    SERVICE_CLIENT_ID: fixtures.clientId,
    SERVICE_CLIENT_SECRET: fixtures.clientSecret,
    SERVICE_SCOPE: fixtures.scope,
  };
}

/** `next start` on a port, in remote mode against the standalone sandbox. */
export async function startPortal(port: number, config: PortalConfig, extraEnv: Record<string, string> = {}): Promise<Started & { url: string }> {
  const url = `http://localhost:${port}`;
  const started = start(`portal-${port}`, 'npx', ['next', 'start', '--port', String(port)], {
    NODE_ENV: 'production',
    DATABASE_URL: config.databaseUrl,
    PORTAL_URL: url,
    DATA_DIR: path.join(root, '.data', `scale-portal-${port}`),
    ...sandboxServiceEnv(config.sandboxUrl, config.fixtures),
    WEBHOOK_SECRET: config.webhookSecret,
    AUTH_SECRET: config.authSecret,
    ENCRYPTION_KEY: config.encryptionKey,
    LOG_LEVEL: 'info',
    ...extraEnv,
  });
  await waitFor(`the portal on ${port}`, async () => (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(10_000) })).ok, 90_000);
  return { ...started, url };
}

/** True while any process of the group led by `pid` is alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A portal process the suites start, stop and start again: the one start / restart / stop of scale and reliability. */
export interface PortalProcess {
  url: string;
  port: number;
  /** The current process (a restart replaces it). */
  child: ChildProcess;
  logFile: string;
  /**
   * Signals the whole process group and waits until none of it is left (at most `limitMs`, then
   * SIGKILL); returns the milliseconds it took to be gone.
   */
  stop(signal?: NodeJS.Signals, limitMs?: number): Promise<number>;
  /** A new `next start` with the same settings (on the same database), once /api/health answers. */
  restart(): Promise<void>;
}

/**
 * `next start` against the standalone sandbox, subscribed to that sandbox's webhooks (unless
 * `webhook: false`), so the booking outcomes the sandbox sends reach this portal.
 */
export async function launchPortal(port: number, config: PortalConfig, extraEnv: Record<string, string> = {}, options: { webhook?: boolean } = {}): Promise<PortalProcess> {
  let current = await startPortal(port, config, extraEnv);
  if (options.webhook !== false) await subscribeWebhook(config.sandboxUrl, current.url, config.webhookSecret);
  const portal: PortalProcess = {
    url: current.url,
    port,
    child: current.child,
    logFile: current.logFile,
    async stop(signal = 'SIGTERM', limitMs = 20_000) {
      const pid = portal.child.pid ?? 0;
      const sentAt = performance.now();
      stopProcess(portal.child, signal);
      while (pid && groupAlive(pid) && performance.now() - sentAt < limitMs) await sleep(50);
      const ms = Math.round(performance.now() - sentAt);
      if (pid && groupAlive(pid)) stopProcess(portal.child, 'SIGKILL');
      return ms;
    },
    async restart() {
      current = await startPortal(port, config, extraEnv);
      portal.child = current.child;
      portal.logFile = current.logFile;
    },
  };
  return portal;
}

/** Subscribes a portal's /api/webhooks to a standalone sandbox's outcomes (idempotent per url and secret). */
export async function subscribeWebhook(sandboxUrl: string, portalUrl: string, webhookSecret: string): Promise<void> {
  const response = await fetch(`${sandboxUrl}/_sandbox/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${portalUrl}/api/webhooks`, secret: webhookSecret }),
  });
  if (!response.ok) throw new Error(`the sandbox at ${sandboxUrl} refused the webhook subscription: ${response.status} ${await response.text()}`);
}
