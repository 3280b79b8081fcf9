// A benchmark world that stays up, for profiling between bench runs: the standalone sandbox
// (preset large, 30 ms latency) and one `next start` portal against it (PGlite), signed in, the
// large system connected and loaded. Writes <dir>/world.json (cookie, ids, ports) and runs until
// Ctrl-C. Reuses <dir> on the next start (same secrets, same data): only the first start pages.
// Needs a build (`next build`). Usage: tsx scripts/bench/world.ts [--dir /tmp/world] [--portal-port 3201]
//   [--sandbox-port 4031] [--node-args=--cpu-prof,--cpu-prof-dir=/tmp/prof] [--env KEY=VALUE ...]
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SandboxFixtures } from '@/sandbox';
import { PortalSession, sleep } from './http';
import { sandboxServiceEnv } from '../harness/processes';
import { runToEnd, startProcess, stopAll, stopChildrenOnSignals } from './proc';

const { values: args } = parseArgs({
  options: {
    dir: { type: 'string', default: '/tmp/world' },
    'portal-port': { type: 'string', default: '3201' },
    'sandbox-port': { type: 'string', default: '4031' },
    latency: { type: 'string', default: '30' },
    /** Flags for the portal's node, e.g. --node-args=--cpu-prof,--cpu-prof-dir=/tmp/prof (comma-separated). */
    'node-args': { type: 'string', default: '' },
    env: { type: 'string', multiple: true, default: [] },
  },
});
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DIR = path.resolve(String(args.dir));
const PORTAL = `http://127.0.0.1:${args['portal-port']}`;
const SANDBOX = `http://127.0.0.1:${args['sandbox-port']}`;
const NODE = process.execPath;

interface Saved {
  adminEmail: string;
  adminPassword: string;
  webhookSecret: string;
  authSecret: string;
  encryptionKey: string;
}

async function waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await sleep(300);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function main() {
  stopChildrenOnSignals();
  const fresh = !existsSync(path.join(DIR, 'secrets.json'));
  await mkdir(DIR, { recursive: true });
  const saved: Saved = fresh
    ? {
        adminEmail: 'world-admin@example.com',
        adminPassword: randomBytes(18).toString('base64url'),
        webhookSecret: `whsec_${randomBytes(32).toString('base64')}`,
        authSecret: randomBytes(32).toString('hex'),
        encryptionKey: randomBytes(32).toString('base64'),
      }
    : (JSON.parse(await readFile(path.join(DIR, 'secrets.json'), 'utf8')) as Saved);
  const sandboxArgs = ['node_modules/tsx/dist/cli.mjs', 'sandbox/server.ts', '--port', String(args['sandbox-port']), '--latency', String(args.latency), '--data-dir', path.join(DIR, 'sandbox')];
  if (fresh) sandboxArgs.push('--preset', 'large');
  const sandbox = startProcess('sandbox', NODE, sandboxArgs, { cwd: ROOT, env: { ...process.env, DATABASE_URL: '' }, logFile: path.join(DIR, 'sandbox.log') });
  await waitUntil('the sandbox', () => Promise.resolve(/ready in/.test(sandbox.output())));
  const fixtures = (await (await fetch(`${SANDBOX}/_sandbox/fixtures`)).json()) as SandboxFixtures;
  const approval = fixtures.approvals[0]!;
  const deviceId = approval.deviceIds[0]!;
  const extra = Object.fromEntries((args.env).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  const portalEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORTAL_URL: PORTAL,
    DATA_DIR: path.join(DIR, 'portal'),
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    ...sandboxServiceEnv(SANDBOX, fixtures),
    WEBHOOK_SECRET: saved.webhookSecret,
    AUTH_SECRET: saved.authSecret,
    ENCRYPTION_KEY: saved.encryptionKey,
    MIRROR_FRESHNESS_S: '30',
    RECONCILE_AFTER_S: '86400',
    ...extra,
  };
  if (fresh) {
    await runToEnd('portal database setup', NODE, ['node_modules/tsx/dist/cli.mjs', '--conditions=react-server', 'scripts/bench/setup-db.ts'], {
      cwd: ROOT,
      env: portalEnv,
      logFile: path.join(DIR, 'setup-db.log'),
      input: JSON.stringify({ dataDir: portalEnv.DATA_DIR, adminEmail: saved.adminEmail, adminPassword: saved.adminPassword, requests: [] }),
    });
    await writeFile(path.join(DIR, 'secrets.json'), JSON.stringify(saved));
  }
  await fetch(`${SANDBOX}/_sandbox/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${PORTAL}/api/webhooks`, secret: saved.webhookSecret }),
  });
  const nodeArgs = String(args['node-args']).split(',').filter(Boolean);
  const portal = startProcess('portal', NODE, [...nodeArgs, 'node_modules/next/dist/bin/next', 'start', '--port', String(args['portal-port']), '--hostname', '127.0.0.1'], {
    cwd: ROOT,
    env: portalEnv,
    logFile: path.join(DIR, 'portal.log'),
  });
  await waitUntil('the portal', async () => (await fetch(`${PORTAL}/api/health`)).ok, 120_000);
  const session = new PortalSession(PORTAL);
  await session.signIn(saved.adminEmail, saved.adminPassword);
  if (fresh) {
    await session.json('/api/admin/systems', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ approvalId: approval.approvalId }) });
  }
  const residents = fixtures.residents.filter((r) => r.deviceId === deviceId);
  const resourceIds = [...new Set(residents.flatMap((r) => r.resourceIds))].slice(0, 10);
  const week = `/api/systems/${deviceId}/resources/${resourceIds[0]}/week`;
  await waitUntil('the first load', async () => {
    const body = await session.json<{ freshness: { status: string; refreshing: boolean } }>(week);
    return body.freshness.status === 'ready';
  });
  const world = { portal: PORTAL, sandbox: SANDBOX, cookie: session.cookieHeader(), deviceId, resourceIds, residents: residents.slice(0, 20), portalPid: portal.pid, sandboxPid: sandbox.pid, id: randomUUID() };
  await writeFile(path.join(DIR, 'world.json'), JSON.stringify(world, null, 2));
  console.log(`world ready: ${path.join(DIR, 'world.json')} (portal pid ${portal.pid})`);
  await new Promise<void>((resolve) => {
    process.on('SIGINT', resolve);
    process.on('SIGTERM', resolve);
  });
}

try {
  await main();
} finally {
  await stopAll();
}
