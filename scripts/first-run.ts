// How long a new user waits from `git clone` to a usable portal (issue 30): clones this repository
// into a temporary folder, installs, starts the portal (`npm run demo`, or `npm run dev` with
// --mode dev), then Chromium signs in as the demo manager and waits for a room's week grid.
// Prints the seconds of each phase and the machine's load. Not part of `npm test` (minutes).
//   npm run first-run -- [--mode demo|dev] [--port 3700] [--keep]
// The clone is of the committed HEAD; npm's cache is used as it is (say so when you quote a figure).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const mode = arg('mode', 'demo');
const port = Number(arg('port', '3700'));
const keep = process.argv.includes('--keep');
if (mode !== 'demo' && mode !== 'dev') throw new Error('--mode is demo or dev');

const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-first-run-'));
const phases: { phase: string; seconds: number }[] = [];
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

async function phase<T>(name: string, run: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  console.log(`▶ ${name}…`);
  const result = await run();
  phases.push({ phase: name, seconds: (performance.now() - started) / 1000 });
  console.log(`  ${name}: ${phases.at(-1)!.seconds.toFixed(1)} s (load ${load()})`);
  return result;
}

function stop(child: ChildProcess | undefined): void {
  if (!child?.pid || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

let server: ChildProcess | undefined;
const loadBefore = load();
const total = performance.now();
try {
  await phase('git clone', () => execFileSync('git', ['clone', '--quiet', root, dir], { stdio: 'inherit' }));
  await phase('npm install', () => execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' }));
  const base = `http://127.0.0.1:${port}`;
  await phase(mode === 'demo' ? 'npm run demo (build, start)' : 'npm run dev (start)', async () => {
    // As on a fresh machine: none of this shell's portal settings.
    const env = Object.fromEntries(Object.entries({ ...process.env, NEXT_TELEMETRY_DISABLED: '1' }).filter(([name]) => !['PORTAL_URL', 'DATA_DIR', 'NODE_ENV'].includes(name))) as unknown as NodeJS.ProcessEnv;
    const child = spawn('npm', ['run', mode, '--', '-p', String(port)], { cwd: dir, env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    server = child;
    const end = Date.now() + 900_000;
    while (Date.now() < end && child.exitCode === null) {
      const ok = await fetch(`${base}/sign-in`, { signal: AbortSignal.timeout(120_000) }).then((r) => r.status === 200, () => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
    throw new Error('the portal never answered /sign-in');
  });
  await phase('signed in, a week grid drawn (Chromium)', async () => {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage({ baseURL: base, locale: 'en-US' });
      await page.goto('/sign-in');
      await page.getByLabel(/^(E-mail|E-post)$/).fill('manager@example.com');
      await page.getByLabel(/^(Password|Lösenord)$/).fill('portal-demo');
      await page.getByRole('button', { name: /^(Sign in|Logga in)$/ }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'), { timeout: 300_000 });
      const { systems } = (await (await page.request.get('/api/systems')).json()) as { systems: { deviceId: string }[] };
      const deviceId = systems[0]?.deviceId;
      let resourceId: string | undefined;
      for (let i = 0; i < 120 && !resourceId; i += 1) {
        const overview = (await (await page.request.get(`/api/systems/${deviceId}/overview`)).json().catch(() => ({}))) as { resources?: { id: string }[] };
        resourceId = overview.resources?.[0]?.id;
        if (!resourceId) await page.waitForTimeout(1000);
      }
      await page.goto(`/systems/${deviceId}/resources/${resourceId}`, { timeout: 300_000 });
      await page.getByRole('region').getByRole('button', { name: /\d\d:\d\d–\d\d:\d\d, / }).first().waitFor({ timeout: 300_000 });
    } finally {
      await browser.close();
    }
  });
  const seconds = (performance.now() - total) / 1000;
  console.log(`\nFirst run (${mode}) on ${os.cpus().length} cores, load before ${loadBefore}, after ${load()}:`);
  for (const p of phases) console.log(`  ${p.phase.padEnd(42)} ${p.seconds.toFixed(1).padStart(6)} s`);
  console.log(`  ${'clone to a usable page'.padEnd(42)} ${seconds.toFixed(1).padStart(6)} s`);
} finally {
  stop(server);
  if (!keep) setTimeout(() => rmSync(dir, { recursive: true, force: true }), 2000);
  else console.log(`The clone stays in ${dir}`);
}
