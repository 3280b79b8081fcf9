// Counts how often the sign-in page reloads itself under `next dev`, before and after a restart of
// the dev server with the page left open (issue 15: 29–36 reloads in 15 s after a restart).
//   npx tsx scripts/dev-reloads.ts [--port 3451] [--seconds 15] [--verbose]
// Prints the figures and exits 1 when a window saw more than 2 reloads. Not part of `npm test`:
// it needs a dev server's compile time (minutes on a small machine).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const port = arg('port', 3451);
const seconds = arg('seconds', 15);
const verbose = process.argv.includes('--verbose');
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dev-reloads-'));

function startDev(): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development' };
  delete env.PORTAL_URL;
  return spawn(process.execPath, ['node_modules/next/dist/bin/next', 'dev', '-p', String(port)], { cwd: root, env, stdio: 'ignore', detached: true });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    child.once('exit', () => resolve());
    process.kill(-child.pid, 'SIGTERM'); // its own group: next dev and its server process
  });
}

async function waitUp(): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    if (await fetch(`http://localhost:${port}/api/health`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error('the dev server did not come up');
}

/** Document loads of the page (real reloads, not history updates) over the window. */
async function countReloads(page: Page, loads: { n: number }): Promise<number> {
  const before = loads.n;
  await page.waitForTimeout(seconds * 1_000);
  return loads.n - before;
}

let dev = startDev();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  await waitUp();
  const page = await browser.newPage();
  const loads = { n: 0 };
  page.on('request', (r) => {
    if (r.resourceType() !== 'document') return;
    loads.n += 1;
    if (verbose) console.log(new Date().toISOString(), 'document', r.url());
  });
  await page.goto(`http://localhost:${port}/sign-in`, { timeout: 300_000 });
  await page.waitForTimeout(3_000); // the first compile settles
  const first = await countReloads(page, loads);
  await stop(dev);
  dev = startDev();
  await waitUp();
  await page.waitForTimeout(3_000);
  const afterRestart = await countReloads(page, loads);
  const later = await countReloads(page, loads);
  console.log(JSON.stringify({ seconds, first, afterRestart, later }));
  process.exitCode = Math.max(first, afterRestart, later) > 2 ? 1 : 0;
} finally {
  await browser.close();
  await stop(dev);
}
