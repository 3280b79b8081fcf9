import { describe, expect, it } from 'vitest';
import { compareFigure, parseResults } from './previous';

describe('the previous bench run', () => {
  const committed = JSON.stringify({
    ranAt: '2026-11-25T03:00:00.000Z',
    commit: 'abc123',
    figures: [
      { key: 'warmGridP50Ms', value: 12.3, unit: 'ms' },
      { key: 'exportRowsPerS', value: 45100, unit: 'rows/s' },
      { key: 'lighthouseScore', value: null, unit: '' },
      { value: 3 },
    ],
    details: { machine: { loadAverageAtStart: [0.4, 0.5, 0.6] } },
  });

  it('reads figures by key, skipping malformed ones', () => {
    const run = parseResults(committed);
    expect(run?.commit).toBe('abc123');
    expect(run?.loadAverageAtStart).toEqual([0.4, 0.5, 0.6]);
    expect([...(run?.byKey.keys() ?? [])]).toEqual(['warmGridP50Ms', 'exportRowsPerS', 'lighthouseScore']);
    expect(parseResults('not json')).toBeNull();
  });

  it('marks a slower time or a lower rate as worse, within a tolerance', () => {
    const run = parseResults(committed)!;
    expect(compareFigure({ value: 15, unit: 'ms' }, run.byKey.get('warmGridP50Ms'))).toEqual({ text: '12.3 ms (+22 %, worse)', worse: true });
    expect(compareFigure({ value: 12.9, unit: 'ms' }, run.byKey.get('warmGridP50Ms'))).toEqual({ text: '12.3 ms (+5 %)', worse: false });
    expect(compareFigure({ value: 6, unit: 'ms' }, run.byKey.get('warmGridP50Ms')).worse).toBe(false);
    expect(compareFigure({ value: 30000, unit: 'rows/s' }, run.byKey.get('exportRowsPerS'))).toEqual({ text: '45100 rows/s (−33 %, worse)', worse: true });
    expect(compareFigure({ value: 60000, unit: 'rows/s' }, run.byKey.get('exportRowsPerS')).worse).toBe(false);
  });

  it("takes the direction from the figure's target when it has one (a speed-up and a ratio share the unit ×)", () => {
    const run = parseResults(JSON.stringify({ figures: [{ key: 'speedUp', value: 2000, unit: '×' }, { key: 'ratio', value: 1.0, unit: '×' }] }))!;
    expect(compareFigure({ value: 3000, unit: '×', target: '≥ 100 ×' }, run.byKey.get('speedUp')).worse).toBe(false);
    expect(compareFigure({ value: 1000, unit: '×', target: '≥ 100 ×' }, run.byKey.get('speedUp')).worse).toBe(true);
    expect(compareFigure({ value: 1.3, unit: '×', target: '≤ 1.1' }, run.byKey.get('ratio')).worse).toBe(true);
  });

  it('says nothing to compare when there was no previous value', () => {
    const run = parseResults(committed)!;
    expect(compareFigure({ value: 99, unit: '' }, run.byKey.get('lighthouseScore')).text).toBe('—');
    expect(compareFigure({ value: 1, unit: 'ms' }, undefined).text).toBe('—');
  });
});

describe('contended figures', () => {
  const committed = JSON.stringify({
    figures: [
      { key: 'warmP50', value: 6.4, unit: 'ms', contended: false },
      { key: 'lookup', value: 8.8, unit: 'ms', contended: true },
    ],
  });

  it('reads whether a committed figure was contended', () => {
    const run = parseResults(committed)!;
    expect(run.byKey.get('warmP50')?.contended).toBe(false);
    expect(run.byKey.get('lookup')?.contended).toBe(true);
  });

  it('never calls a contended figure worse, on either side', () => {
    const run = parseResults(committed)!;
    // Twice as slow, but measured on a loaded machine: printed, not compared.
    expect(compareFigure({ value: 13, unit: 'ms', contended: true }, run.byKey.get('warmP50'))).toEqual({ text: '6.4 ms (not compared: this run contended)', worse: false });
    expect(compareFigure({ value: 30, unit: 'ms', contended: false }, run.byKey.get('lookup'))).toEqual({ text: '8.8 ms (not compared: that run contended)', worse: false });
    expect(compareFigure({ value: 30, unit: 'ms', contended: true }, run.byKey.get('lookup')).text).toBe('8.8 ms (not compared: both contended)');
    // Both uncontended: compared as before.
    expect(compareFigure({ value: 13, unit: 'ms', contended: false }, run.byKey.get('warmP50'))).toEqual({ text: '6.4 ms (+103 %, worse)', worse: true });
  });
});
