import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countChecks, countPlaywright, countVitest, cpuBusy, cpuTimes, formatTable } from './step-table';

const dir = mkdtempSync(path.join(os.tmpdir(), 'step-table-'));
const file = (name: string, content: unknown) => {
  const p = path.join(dir, name);
  writeFileSync(p, JSON.stringify(content));
  return p;
};

describe('the step table of npm test', () => {
  it("reads Vitest's counts, skipped and todo together", () => {
    expect(countVitest(file('v.json', { numPassedTests: 1620, numFailedTests: 2, numPendingTests: 1, numTodoTests: 1 }))).toEqual({ passed: 1620, failed: 2, skipped: 2 });
  });

  it("reads Playwright's counts: a test that passed on its retry is passed and flaky", () => {
    expect(countPlaywright(file('p.json', { stats: { expected: 99, unexpected: 1, flaky: 2, skipped: 3 } }))).toEqual({ passed: 101, failed: 1, skipped: 3, flaky: 2 });
  });

  it('has no count for a missing report (the step died before writing it)', () => {
    expect(countVitest(path.join(dir, 'none.json'))).toBeNull();
    expect(countPlaywright(path.join(dir, 'none.json'))).toBeNull();
  });

  it('counts the ok / FAIL / skip lines of a checking script, with or without the side-by-side prefix', () => {
    const lines = ['== 1. bad input', 'ok   every route answers 4xx', '[reliability] ok   no secret', 'FAIL the closure reports done', 'skip mail (no SMTP)', 'okay not a check'];
    expect(countChecks(lines)).toEqual({ passed: 2, failed: 1, skipped: 1 });
    expect(countChecks(['just output'])).toBeNull();
  });

  it('tells busy CPU time from idle over every core', () => {
    const at = (idle: number, busy: number) => cpuTimes([{ times: { user: busy, nice: 0, sys: 0, idle, irq: 0 } }, { times: { user: busy, nice: 0, sys: 0, idle, irq: 0 } }]);
    expect(cpuBusy(at(100, 100), at(130, 170))).toBeCloseTo(0.7);
    expect(cpuBusy(at(100, 100), at(100, 100))).toBeUndefined();
  });

  it('prints each step with its wall time, counts and load, says which run no test, and totals the counts', () => {
    const table = formatTable(
      [
        { name: 'lint', status: 'passed', seconds: 72.6, counts: null, note: 'runs no test', load: { mean: 1.2, max: 2, cpuBusy: 0.634 } },
        { name: 'unit', status: 'passed', seconds: 301, counts: { passed: 1624, failed: 0, skipped: 1 }, load: { mean: 1.9, max: 2.4 } },
        { name: 'e2e', status: 'failed', seconds: 600, counts: { passed: 100, failed: 1, skipped: 0, flaky: 1 }, load: { mean: 2, max: 3 } },
        { name: 'dev start', status: 'not run', seconds: 0, counts: null, note: 'an earlier step failed', load: null },
      ],
      974,
      { cpus: 2, cpu: 'Test CPU' },
    );
    expect(table).toContain('npm test: 974 s on 2 × Test CPU');
    expect(table).toMatch(/\| lint +\| passed +\| +73 s \| runs no test +\| 1\.20 \(max 2\.00\) +\| 63 % +\|/);
    expect(table).toMatch(/\| unit +\| passed .*\| — +\|$/m);
    expect(table).toMatch(/\| e2e +\| failed +\| +600 s \| 100 \/ 1 \/ 0 \(1 flaky\)/);
    expect(table).toMatch(/\| dev start +\| not run +\| +— \| an earlier step failed/);
    expect(table).toMatch(/\| total +\| failed +\| +974 s \| 1724 \/ 1 \/ 1 /);
  });
});
