import { describe, expect, it } from 'vitest';
import { LoadMonitor, OTHERS_LIMIT_CORES, RUN, cpuTicksOf, describeLoad, figureContended, isBenchBackend, isContended } from './load';

const samplesOfA = (phases: Record<string, { samples: number }>) => phases['(a)']!.samples;

describe('the load of a bench phase', () => {
  it('is contended when any 1-minute reading is above the core count', () => {
    expect(isContended([0.4, 1.9, 2.0], 2)).toBe(false);
    expect(isContended([0.4, 2.01, 0.5], 2)).toBe(true);
    expect(isContended([], 2)).toBe(false);
  });

  it('is not contended by its own load: above the cores only counts when others used more than a quarter of a core', () => {
    expect(isContended([0.4, 3.2, 2.01], 2, 0.1)).toBe(false);
    expect(isContended([0.4, 3.2, 2.01], 2, OTHERS_LIMIT_CORES)).toBe(false);
    expect(isContended([0.4, 3.2, 2.01], 2, 0.26)).toBe(true);
    expect(isContended([0.4, 1.5], 2, 1.5)).toBe(false); // others busy, yet the cores were not oversubscribed
    expect(isContended([0.4, 2.5], 2, null)).toBe(true); // no CPU split: the load decides
  });

  it("marks a figure contended when any phase it rests on was", () => {
    const byPhase = { '(a)': { contended: false, max1: 1.2 }, '(b)': { contended: true, max1: 2.6 } };
    expect(figureContended(['(a)'], byPhase)).toBe(false);
    expect(figureContended(['(a)', '(b)'], byPhase)).toBe(true);
    expect(figureContended(['(z)'], byPhase)).toBe(false);
    expect(describeLoad(['(a)'], byPhase)).toBe('1.20');
    expect(describeLoad(['(a)', '(b)'], byPhase)).toBe('2.60 contended');
    expect(describeLoad([], byPhase)).toBe('');
  });

  it('keeps each phase it was told of, with the load at its start and end and its own CPU', async () => {
    const load = new LoadMonitor(10);
    load.phase('(a)');
    load.phase('(a)'); // the same phase again: nothing new
    await new Promise((resolve) => setTimeout(resolve, 40));
    load.phase('(b)');
    expect(load.current).toBe('(b)');
    const phases = await load.stop();
    expect(Object.keys(phases)).toEqual(['(a)', '(b)', RUN]);
    expect(phases[RUN]!.samples).toBeGreaterThanOrEqual(samplesOfA(phases));
    expect(load.contendedPhases()).not.toContain(RUN);
    const a = phases['(a)']!;
    expect(a.start).toHaveLength(3);
    expect(a.end).toHaveLength(3);
    expect(a.samples).toBeGreaterThanOrEqual(2);
    expect(a.contended).toBe(a.max1 > load.cores && a.othersCpuCores! > OTHERS_LIMIT_CORES);
    expect(a.ownCpuCores).not.toBeNull();
    expect(a.othersCpuCores).not.toBeNull();
    expect(a.othersCpuCores).toBeGreaterThanOrEqual(0);
    expect(load.current).toBeNull();
  });
});

describe("the bench's own CPU on PostgreSQL", () => {
  it("counts the backends and autovacuum of the bench's databases, not the server's other processes", () => {
    expect(isBenchBackend('postgres: 15/main: postgres portal_bench_portfolio_mb3x_1a2b3c 127.0.0.1(51234) idle\0\0')).toBe(true);
    expect(isBenchBackend('postgres: postgres portal_bench_steady_x 127.0.0.1(1) SELECT')).toBe(true);
    expect(isBenchBackend('postgres: 15/main: autovacuum worker portal_bench_portfolio_mb3x_1a2b3c')).toBe(true);
    expect(isBenchBackend('postgres: 15/main: postgres test 127.0.0.1(51234) idle')).toBe(false);
    expect(isBenchBackend('postgres: 15/main: checkpointer ')).toBe(false);
    expect(isBenchBackend('node\0scripts/bench.ts\0--note\0portal_bench_x')).toBe(false);
  });

  it('reads utime and stime of a stat line whose command holds spaces, with its ended children only when asked', () => {
    const stat = '4242 (postgres: a (b) c) S 1 2 3 4 5 6 7 8 9 10 100 50 7 3 20 0 1 0';
    expect(cpuTicksOf(stat, false)).toBe(150);
    expect(cpuTicksOf(stat, true)).toBe(160);
    expect(cpuTicksOf('', true)).toBe(0);
  });
});
