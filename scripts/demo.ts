// `npm run demo`: the portal on its production build with the built-in sandbox and demo logins —
// the fastest way to a usable portal (every page is compiled once, by the build; issue 30).
// Builds only when the build is missing or stale: `.next/portal-build-stamp.json` records the git
// HEAD and the lockfile's hash of the last build made here. Then `next start` with DEMO_MODE=1.
//   npm run demo -- -p 3700      (any `next start` argument passes through)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const next = path.join(root, 'node_modules/next/dist/bin/next');
const stampFile = path.join(root, '.next/portal-build-stamp.json');
const args = process.argv.slice(2);

interface Stamp {
  head: string;
  lockfile: string;
}

function currentStamp(): Stamp {
  let head = 'no-git';
  try {
    head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // Not a clone (an unpacked archive): the lockfile alone decides.
  }
  const lockfile = createHash('sha256').update(readFileSync(path.join(root, 'package-lock.json'))).digest('hex');
  return { head, lockfile };
}

/** Why the build must be made again, or null when the one in .next/ is this checkout's. */
function staleReason(current: Stamp, built: Stamp | null, hasBuild: boolean): string | null {
  if (!hasBuild) return 'no production build yet';
  if (!built) return 'the build was not made by npm run demo';
  if (built.head !== current.head) return 'the code changed since the last build';
  if (built.lockfile !== current.lockfile) return 'the dependencies changed since the last build';
  return null;
}

function readStamp(): Stamp | null {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8')) as Stamp;
  } catch {
    return null;
  }
}

function portOf(argv: string[]): number {
  let port = Number(process.env.PORT ?? 3000);
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i]!;
    const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
    if (/^(-p|--port)(=|$)/.test(a) && value) port = Number(value);
  }
  return port;
}

const stamp = currentStamp();
const reason = staleReason(stamp, readStamp(), existsSync(path.join(root, '.next/BUILD_ID')));
if (reason) {
  console.log(`\n  Building the portal once (${reason}): a few minutes on a small machine; later starts skip this.\n`);
  const started = performance.now();
  // No type check: a demo only runs the portal; `npm run typecheck` and CI check the types.
  const build = spawnSync(process.execPath, [next, 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', PORTAL_BUILD_TYPECHECK: '0' } });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(stampFile, `${JSON.stringify(stamp, null, 2)}\n`);
  console.log(`\n  Built in ${((performance.now() - started) / 1000).toFixed(0)} s.\n`);
}

const port = portOf(args);
const child = spawn(process.execPath, [next, 'start', ...args], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', DEMO_MODE: '1' } });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));

console.log(
  [
    '',
    `  The demo portal: http://localhost:${port} (or http://127.0.0.1:${port}, or this machine's address)`,
    '  Sign in as manager@example.com or admin@example.com, password portal-demo.',
    '  The built-in sandbox stands in for the booking service; data lives under .data/.',
    '',
  ].join('\n'),
);
