// Counts how often the sign-in page reloads itself under `next dev`, and records why.
//
// First starts (issue 31; the default): a checkout that holds a production build starts `npm run dev`
// for the first time (PORTAL_URL unset, DATA_DIR outside the project) with /sign-in open in Chromium.
// Each run records the page loads, the dev server's "Compiled" lines, the HMR messages the page
// receives and the files that change in the project, then stops the server.
//   npx tsx scripts/dev-reloads.ts [--runs 10] [--seconds 60] [--port 3451]
//       [--reuse-build | --fresh-clone] [--build-lock /tmp/build.lock] [--data-dir inside] [--verbose]
//   --reuse-build  this checkout; builds only when .next holds no production build. Before each run
//                  it puts back what a build leaves: no .next/dev, the build's next-env.d.ts.
//   --fresh-clone  (default) each run clones HEAD to a temporary folder (node_modules hard-linked)
//                  and runs `npm run build` there first, as a newcomer would.
//   --data-dir inside  DATA_DIR=.data in the project (the default setting) instead of a temp folder.
//   --keep-dev-cache   with --reuse-build: keep .next/dev/cache (Turbopack's cache) between runs, for
//                      quicker runs on a slow machine; all else of .next/dev goes.
//   --no-build         with --reuse-build: never build, use the checkout's .next as it is.
// Restart (issue 15): `--restart` keeps the page open across a restart of the dev server and counts
// the reloads per window (first start, after the restart, later).
// Exits 1 when a run (or window) saw more than 2 page loads.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const flag = (name: string) => process.argv.includes(`--${name}`);
const port = Number(argValue('port') ?? process.env.DEV_START_PORT ?? 3460);
const seconds = Number(argValue('seconds') ?? 15);
const runs = Number(argValue('runs') ?? 1);
const buildLock = argValue('build-lock');
const dataInside = argValue('data-dir') === 'inside';
const verbose = flag('verbose');
const root = path.resolve(import.meta.dirname, '..');
const MAX_LOADS = 2;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stamp = (t0: number) => ((Date.now() - t0) / 1000).toFixed(1).padStart(6);

function devEnv(dataDir: string): NodeJS.ProcessEnv {
  // The dev server as a newcomer starts it: no PORTAL_URL, NODE_ENV or CI of the caller's.
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir };
  for (const name of ['PORTAL_URL', 'NODE_ENV', 'CI']) delete env[name];
  return env as NodeJS.ProcessEnv;
}

/** Stops the dev server's process group and waits until none of it is left (it still writes its cache). */
async function stop(child: ChildProcess): Promise<void> {
  await signalGroup(child);
  const alive = () => {
    try { process.kill(-child.pid!, 0); return true; } catch { return false; }
  };
  for (let i = 0; child.pid !== undefined && alive() && i < 60; i += 1) {
    if (i === 30) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    await sleep(500);
  }
}

function signalGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
    const timer = setTimeout(() => {
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ }
    }, 10_000);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    try { process.kill(-child.pid, 'SIGTERM'); } catch { resolve(); } // its own group: npm, next dev, its server
  });
}

async function waitUp(child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    if (child.exitCode !== null) throw new Error(`the dev server exited with ${child.exitCode}`);
    if (await fetch(`http://localhost:${port}/api/health`).then((r) => r.ok, () => false)) return;
    await sleep(1_000);
  }
  throw new Error('the dev server did not come up');
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(cmd, args, { cwd, env, stdio: verbose ? 'inherit' : 'pipe', encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${result.stdout ?? ''}${result.stderr ?? ''}`);
}

/** `npm run build`, under the shared build lock when one is given (machines shared by several builds). */
function build(dir: string): void {
  console.log(`building ${dir} …`);
  if (buildLock) run('flock', [buildLock, 'npm', 'run', 'build'], dir);
  else run('npm', ['run', 'build'], dir);
}

const hasProductionBuild = (dir: string) => existsSync(path.join(dir, '.next', 'BUILD_ID'));

/** What `next build` leaves: no dev output, and next-env.d.ts pointing at the build's route types. */
function resetToBuilt(dir: string): void {
  const devDir = path.join(dir, '.next', 'dev');
  if (flag('keep-dev-cache')) {
    // Quicker runs: Turbopack's persistent cache stays, everything else dev wrote goes.
    if (existsSync(devDir)) for (const entry of readdirSync(devDir)) if (entry !== 'cache') rmSync(path.join(devDir, entry), { recursive: true, force: true });
  } else rmSync(devDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 500 });
  const nextEnv = path.join(dir, 'next-env.d.ts');
  if (existsSync(nextEnv)) writeFileSync(nextEnv, readFileSync(nextEnv, 'utf8').replaceAll('./.next/dev/types/', './.next/types/'));
}

function freshClone(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dev-first-start-'));
  run('git', ['clone', '--quiet', '--no-local', root, dir], os.tmpdir());
  // Hard links: a clone's own node_modules in seconds (same file system), without a registry.
  run('cp', ['-al', path.join(root, 'node_modules'), path.join(dir, 'node_modules')], dir);
  build(dir);
  return dir;
}

/** Watches the project (without node_modules and .git) and counts changed paths. */
function watchProject(dir: string, t0: number, events: { t: number; file: string }[]): FSWatcher[] {
  const watchers: FSWatcher[] = [];
  const add = (target: string, recursive: boolean, prefix: string) => {
    try {
      watchers.push(watch(target, { recursive }, (_event, name) => {
        if (!name) return;
        const file = prefix ? `${prefix}/${name}` : name;
        if (!recursive && ['node_modules', '.git'].includes(file)) return;
        events.push({ t: Date.now() - t0, file });
      }));
    } catch { /* vanished */ }
  };
  add(dir, false, '');
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.git') add(path.join(dir, entry.name), true, entry.name);
  }
  return watchers;
}

/** The files a reader cares about: outside .next each one, inside .next by folder (three deep). */
function summariseFiles(events: { file: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { file } of events) {
    const key = file.startsWith('.next/') ? `${file.split('/').slice(0, 3).join('/')}/…` : file;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

interface HmrMessage {
  action?: string;
  type?: string;
  data?: unknown;
}

/** An HMR message's type, with what it is about: the reason of a reload, the resources an update touches. */
function describeHmr(message: HmrMessage): string {
  const type = message.action ?? message.type ?? 'unknown';
  if (typeof message.data === 'string') return `${type} (${message.data.slice(0, 80)})`;
  if (Array.isArray(message.data)) {
    const resources = message.data
      .map((d: { resource?: { path?: string }; type?: string }) => d.resource?.path ?? d.type)
      .filter(Boolean);
    if (resources.length > 0) return `${type} (${[...new Set(resources)].slice(0, 4).join(', ')})`;
  }
  return type;
}

interface RunResult {
  run: number;
  loads: number;
  compiles: number;
  hmr: Record<string, number>;
  /** Files changed after `next dev` printed its banner (what predev writes comes before it). */
  changed: Record<string, number>;
  changedBeforeDev: Record<string, number>;
  firstLoadAfterS: number;
}

async function firstStart(browser: Browser, index: number, dir: string): Promise<RunResult> {
  const dataDir = dataInside ? '.data' : mkdtempSync(path.join(os.tmpdir(), 'dev-first-start-data-'));
  const t0 = Date.now();
  const log: string[] = [];
  const compiles: number[] = [];
  const fsEvents: { t: number; file: string }[] = [];
  const hmr: { t: number; type: string }[] = [];
  const loads: number[] = [];
  let devStartedAt = Number.POSITIVE_INFINITY;
  const watchers = watchProject(dir, t0, fsEvents);
  const dev = spawn('npm', ['run', 'dev', '--', '-p', String(port)], { cwd: dir, env: devEnv(dataDir), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const onLine = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      log.push(`${stamp(t0)} ${line}`);
      if (line.includes('Next.js') && devStartedAt === Number.POSITIVE_INFINITY) devStartedAt = Date.now() - t0;
      if (line.includes('Compiled')) compiles.push(Date.now() - t0);
    }
  };
  dev.stdout.on('data', onLine);
  dev.stderr.on('data', onLine);
  const context = await browser.newContext({ locale: 'en-US' });
  let page: Page | undefined;
  try {
    await waitUp(dev);
    page = await context.newPage();
    page.on('load', () => loads.push(Date.now() - t0));
    page.on('websocket', (ws) => {
      if (!/_next\/(webpack-hmr|turbopack-hmr)|hmr/.test(ws.url())) return;
      ws.on('framereceived', ({ payload }) => {
        let type = 'binary';
        if (typeof payload === 'string') {
          try {
            type = describeHmr(JSON.parse(payload) as HmrMessage);
          } catch { type = 'text'; }
        }
        hmr.push({ t: Date.now() - t0, type });
      });
    });
    await page.goto(`http://localhost:${port}/sign-in`, { timeout: 600_000 });
    const firstLoadAfterS = Math.round((Date.now() - t0) / 1000);
    await page.waitForTimeout(seconds * 1_000);
    const result: RunResult = {
      run: index,
      loads: loads.length,
      compiles: compiles.length,
      hmr: hmr.reduce<Record<string, number>>((acc, m) => ({ ...acc, [m.type]: (acc[m.type] ?? 0) + 1 }), {}),
      changed: summariseFiles(fsEvents.filter((e) => e.t >= devStartedAt)),
      changedBeforeDev: summariseFiles(fsEvents.filter((e) => e.t < devStartedAt)),
      firstLoadAfterS,
    };
    if (verbose || result.loads > MAX_LOADS) {
      // The timeline names the trigger: what changed on disk and what the HMR socket said before each load.
      const timeline = [
        ...loads.map((t) => ({ t, what: 'LOAD /sign-in' })),
        { t: devStartedAt, what: 'dev: banner (next dev started)' },
        ...compiles.map((t) => ({ t, what: 'dev: Compiled' })),
        ...hmr.filter((m) => verbose || m.type !== 'ping').map((m) => ({ t: m.t, what: `hmr: ${m.type}` })),
        ...fsEvents.filter((e) => verbose || !e.file.startsWith('.next/')).map((e) => ({ t: e.t, what: `fs: ${e.file}` })),
      ].sort((a, b) => a.t - b.t);
      console.log(`--- run ${index} timeline (s since start)`);
      for (const e of timeline.slice(0, 400)) console.log(`${(e.t / 1000).toFixed(1).padStart(6)} ${e.what}`);
      console.log(`--- run ${index} dev log`);
      for (const line of log.slice(-80)) console.log(line);
    }
    return result;
  } finally {
    for (const w of watchers) w.close();
    await context.close();
    await stop(dev);
    if (!dataInside) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function firstStarts(): Promise<number> {
  const reuse = flag('reuse-build');
  // --no-build: this checkout as it is (a build that failed late still leaves what dev starts from).
  if (reuse && !flag('no-build') && !hasProductionBuild(root)) build(root);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const results: RunResult[] = [];
  try {
    for (let i = 1; i <= runs; i += 1) {
      const dir = reuse ? root : freshClone();
      try {
        if (reuse) resetToBuilt(dir);
        const result = await firstStart(browser, i, dir);
        results.push(result);
        console.log(JSON.stringify({ ...result, seconds, load: os.loadavg().map((l) => l.toFixed(2)).join(' ') }));
        console.log(`${result.loads > MAX_LOADS ? 'FAIL' : 'ok  '} first start ${i}: /sign-in loaded ${result.loads} time(s) in ${seconds} s (at most ${MAX_LOADS})`);
      } finally {
        if (!reuse) rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }
  const looped = results.filter((r) => r.loads > MAX_LOADS);
  console.log(`${results.length} first starts, ${looped.length} with more than ${MAX_LOADS} page loads in ${seconds} s`);
  return looped.length > 0 ? 1 : 0;
}

/** Issue 15: the page left open across a restart of the dev server. */
async function restart(): Promise<number> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dev-reloads-'));
  const startDev = () =>
    spawn(process.execPath, ['node_modules/next/dist/bin/next', 'dev', '-p', String(port)], { cwd: root, env: devEnv(dataDir), stdio: 'ignore', detached: true });
  let dev = startDev();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    await waitUp(dev);
    const page = await browser.newPage();
    const loads = { n: 0 };
    page.on('load', () => {
      loads.n += 1;
      if (verbose) console.log(new Date().toISOString(), 'load', page.url());
    });
    const window = async () => {
      const before = loads.n;
      await page.waitForTimeout(seconds * 1_000);
      return loads.n - before;
    };
    await page.goto(`http://localhost:${port}/sign-in`, { timeout: 300_000 });
    await page.waitForTimeout(3_000); // the first compile settles
    const first = await window();
    await stop(dev);
    dev = startDev();
    await waitUp(dev);
    await page.waitForTimeout(3_000);
    const afterRestart = await window();
    const later = await window();
    console.log(JSON.stringify({ seconds, first, afterRestart, later }));
    return Math.max(first, afterRestart, later) > MAX_LOADS ? 1 : 0;
  } finally {
    await browser.close();
    await stop(dev);
  }
}

process.exitCode = flag('restart') ? await restart() : await firstStarts();
