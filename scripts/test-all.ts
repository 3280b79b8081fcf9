// npm test — every step of the test suite, in order (steps of one stage side by side), ending with a
// table of each step's wall time, its test count and the machine's load while it ran (issue 46).
//
//   npm test                      every step; stops at the first stage that fails, the table still printed
//   npm test -- --only unit,e2e   some steps (names as in the table)
//   npm test -- --from e2e        the steps from one on
//
// A step's counts come from its own report: Vitest's and Playwright's JSON reports, the `ok  ` /
// `FAIL` lines of the scripts that check (scale, reliability, the log scan, dev start). A step that
// runs no test (lint, typecheck) says so. The table is also written to test-results/steps.json.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { countChecks, countPlaywright, countVitest, cpuBusy, cpuTimes, formatTable, type Counts, type StepResult } from './harness/step-table';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, '.data', 'test-reports');

interface Step {
  name: string;
  command: string;
  /** Where the step's counts come from. */
  counts: 'none' | 'vitest' | 'playwright' | 'checks';
  /** Skipped, with this reason, when it returns one. */
  skip?: () => string | undefined;
}

const withPostgres = () => (process.env.TEST_DATABASE_URL ? undefined : 'TEST_DATABASE_URL is not set');

/** Stages run one after another; the steps of a stage side by side. */
const STAGES: Step[][] = [
  [
    { name: 'lint', command: 'npm run lint', counts: 'none' },
    { name: 'typecheck', command: 'npm run typecheck', counts: 'none' },
  ],
  [{ name: 'unit', command: `npx vitest run --reporter=default --reporter=json --outputFile.json=${path.join(reports, 'vitest.json')}`, counts: 'vitest' }],
  [{ name: 'e2e', command: 'npm run test:e2e', counts: 'playwright' }],
  // Side by side: none reads what another writes (the log scan reads the e2e step's logs; the
  // PostgreSQL suites serve the production build from .next; dev start compiles into .next/dev on its
  // own port), and the suites spend most of their time waiting on faults and timers (issue 46).
  [
    { name: 'e2e log scan', command: 'npm run test:e2e-logs', counts: 'checks' },
    { name: 'scale and reliability', command: 'npm run test:db-suites', counts: 'checks', skip: withPostgres },
    { name: 'dev start', command: 'npm run test:dev-start', counts: 'checks' },
  ],
];

function argList(name: string): string[] | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? '').split(',').map((s) => s.trim()).filter(Boolean) : undefined;
}

/** Samples the 1-minute load average every 5 s while a step runs, and the CPU time busy over it. */
function loadSampler(): { stop: () => { mean: number; max: number; cpuBusy?: number } } {
  const samples = [os.loadavg()[0] ?? 0];
  const cpuAtStart = cpuTimes(os.cpus());
  const timer = setInterval(() => samples.push(os.loadavg()[0] ?? 0), 5_000);
  return {
    stop: () => {
      clearInterval(timer);
      samples.push(os.loadavg()[0] ?? 0);
      return { mean: samples.reduce((a, b) => a + b, 0) / samples.length, max: Math.max(...samples), cpuBusy: cpuBusy(cpuAtStart, cpuTimes(os.cpus())) };
    },
  };
}

async function runStep(step: Step, prefix: boolean): Promise<StepResult> {
  const skipped = step.skip?.();
  if (skipped) {
    console.log(`== ${step.name}: skipped (${skipped})`);
    return { name: step.name, status: 'skipped', seconds: 0, counts: null, note: skipped, load: null };
  }
  console.log(`== ${step.name}: ${step.command}`);
  const started = performance.now();
  const load = loadSampler();
  const lines: string[] = [];
  const code = await new Promise<number>((resolve) => {
    const child = spawn('bash', ['-c', step.command], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
    const onData = (stream: NodeJS.WriteStream) => {
      let partial = '';
      return (chunk: Buffer) => {
        const text = partial + chunk.toString();
        const parts = text.split('\n');
        partial = parts.pop() ?? '';
        for (const line of parts) {
          lines.push(line);
          stream.write(prefix ? `[${step.name}] ${line}\n` : `${line}\n`);
        }
      };
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    child.on('close', (c) => resolve(c ?? 1));
  });
  const seconds = (performance.now() - started) / 1000;
  const loadFigures = load.stop();
  let counts: Counts | null = null;
  if (step.counts === 'vitest') counts = countVitest(path.join(reports, 'vitest.json'));
  else if (step.counts === 'playwright') counts = countPlaywright(path.join(reports, 'e2e.json'));
  else if (step.counts === 'checks') counts = countChecks(lines);
  console.log(`== ${step.name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`);
  return { name: step.name, status: code === 0 ? 'passed' : 'failed', seconds, counts, note: step.counts === 'none' ? 'runs no test' : undefined, load: loadFigures };
}

async function main(): Promise<number> {
  const only = argList('only');
  const from = argList('from')?.[0];
  const all = STAGES.flat().map((s) => s.name);
  for (const name of [...(only ?? []), ...(from ? [from] : [])]) {
    if (!all.includes(name)) throw new Error(`no step named "${name}"; the steps: ${all.join(', ')}`);
  }
  const fromIndex = from ? all.indexOf(from) : 0;
  const chosen = (step: Step) => (only ? only.includes(step.name) : all.indexOf(step.name) >= fromIndex);
  rmSync(reports, { recursive: true, force: true });
  mkdirSync(reports, { recursive: true });
  const started = performance.now();
  const results: StepResult[] = [];
  let failed = false;
  for (const stage of STAGES) {
    const steps = stage.filter(chosen);
    if (steps.length === 0) continue;
    if (failed) {
      for (const step of steps) results.push({ name: step.name, status: 'not run', seconds: 0, counts: null, note: 'an earlier step failed', load: null });
      continue;
    }
    const done = await Promise.all(steps.map((step) => runStep(step, steps.length > 1)));
    results.push(...done);
    if (done.some((r) => r.status === 'failed')) failed = true;
  }
  const total = (performance.now() - started) / 1000;
  const table = formatTable(results, total, { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown' });
  console.log(`\n${table}`);
  mkdirSync(path.join(root, 'test-results'), { recursive: true });
  writeFileSync(path.join(root, 'test-results', 'steps.json'), JSON.stringify({ at: new Date().toISOString(), total, results }, null, 2));
  return failed ? 1 : 0;
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 2;
});

