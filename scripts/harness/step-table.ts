// The counts and the table of scripts/test-all.ts (npm test): what each step ran, how long, under what load.
import { existsSync, readFileSync } from 'node:fs';

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Passed only on a retry (Playwright in CI). */
  flaky?: number;
}

export interface StepResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped' | 'not run';
  seconds: number;
  counts: Counts | null;
  note?: string;
  /**
   * The 1-minute load average while the step ran (sampled every 5 s), and the share of the
   * machine's CPU time that was busy over the step (steps side by side see the same machine).
   */
  load: { mean: number; max: number; cpuBusy?: number } | null;
}

/** Vitest's JSON report (`--reporter=json`). */
export function countVitest(file: string): Counts | null {
  if (!existsSync(file)) return null;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { numPassedTests?: number; numFailedTests?: number; numPendingTests?: number; numTodoTests?: number };
  return { passed: report.numPassedTests ?? 0, failed: report.numFailedTests ?? 0, skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0) };
}

/** Playwright's JSON report: a flaky test passed on its retry. */
export function countPlaywright(file: string): Counts | null {
  if (!existsSync(file)) return null;
  const { stats } = JSON.parse(readFileSync(file, 'utf8')) as { stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number } };
  if (!stats) return null;
  return { passed: (stats.expected ?? 0) + (stats.flaky ?? 0), failed: stats.unexpected ?? 0, skipped: stats.skipped ?? 0, flaky: stats.flaky ?? 0 };
}

/** The `ok  …` / `FAIL …` / `skip …` lines the checking scripts print, one per check. */
export function countChecks(lines: string[]): Counts | null {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const raw of lines) {
    // A step run side by side prints its lines with a "[name] " prefix.
    const line = raw.replace(/^\[[^\]]+\] /, '');
    if (line.startsWith('ok  ')) counts.passed += 1;
    else if (line.startsWith('FAIL ')) counts.failed += 1;
    else if (line.startsWith('skip ')) counts.skipped += 1;
  }
  return counts.passed + counts.failed + counts.skipped === 0 ? null : counts;
}

const pad = (text: string, width: number, right = false) => (right ? text.padStart(width) : text.padEnd(width));

/** CPU times summed over every core (os.cpus()), to tell busy from waiting. */
export interface CpuTimes {
  idle: number;
  total: number;
}

export function cpuTimes(cpus: { times: Record<'user' | 'nice' | 'sys' | 'idle' | 'irq', number> }[]): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/** The share of CPU time between two readings that was not idle (0–1); undefined when no time passed. */
export function cpuBusy(from: CpuTimes, to: CpuTimes): number | undefined {
  const total = to.total - from.total;
  return total > 0 ? 1 - (to.idle - from.idle) / total : undefined;
}

/** The table npm test ends with. */
export function formatTable(results: StepResult[], totalSeconds: number, machine: { cpus: number; cpu: string }): string {
  const rows = results.map((r) => {
    const tests = r.counts
      ? `${r.counts.passed} / ${r.counts.failed} / ${r.counts.skipped}${r.counts.flaky ? ` (${r.counts.flaky} flaky)` : ''}`
      : r.note ?? (r.status === 'skipped' || r.status === 'not run' ? '—' : 'no count');
    const load = r.load ? `${r.load.mean.toFixed(2)} (max ${r.load.max.toFixed(2)})` : '—';
    const busy = r.load?.cpuBusy === undefined ? '—' : `${Math.round(r.load.cpuBusy * 100)} %`;
    return [r.name, r.status, r.status === 'skipped' || r.status === 'not run' ? '—' : `${r.seconds.toFixed(0)} s`, tests, load, busy];
  });
  const header = ['Step', 'Result', 'Wall', 'Tests passed / failed / skipped', 'Load, 1-min mean', 'CPU busy'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => pad(c, widths[i]!, i === 2)).join(' | ')} |`;
  const sum = results.reduce(
    (acc, r) => ({ passed: acc.passed + (r.counts?.passed ?? 0), failed: acc.failed + (r.counts?.failed ?? 0), skipped: acc.skipped + (r.counts?.skipped ?? 0) }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  return [
    `npm test: ${totalSeconds.toFixed(0)} s on ${machine.cpus} × ${machine.cpu}`,
    line(header),
    `|${widths.map((w, i) => (i === 2 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
    ...rows.map(line),
    line(['total', results.some((r) => r.status === 'failed') ? 'failed' : 'passed', `${totalSeconds.toFixed(0)} s`, `${sum.passed} / ${sum.failed} / ${sum.skipped}`, '', '']),
  ].join('\n');
}
