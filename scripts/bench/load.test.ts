import { describe, expect, it } from 'vitest';
import { LoadMonitor, OTHERS_LIMIT_CORES, RUN, describeLoad, figureContended, isContended } from './load';

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
