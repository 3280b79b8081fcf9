import { describe, expect, it } from 'vitest';
import { estimateLoadProgress, LOAD_RATE_WINDOW_S } from './progress-estimate';

const NOW = new Date('2026-12-03T10:00:00Z');
const ago = (s: number) => new Date(NOW.getTime() - s * 1000);

describe('estimateLoadProgress', () => {
  it('gives the time left at the rate observed: 612 of 1,000 at 40 a minute is about 9 min 42 s', () => {
    // 240 systems read in the last 6 minutes: 40 a minute; 388 left.
    const p = estimateLoadProgress({ total: 1_000, loaded: 612, recent: 240, recentSince: ago(360) }, NOW);
    expect(p).toEqual({ total: 1_000, loaded: 612, remaining: 388, etaSeconds: 582, perMinute: 40 });
  });

  it('takes the rate over the window at most, so a long-running load is judged by its recent pace', () => {
    const p = estimateLoadProgress({ total: 1_000, loaded: 500, recent: 100, recentSince: ago(5 * LOAD_RATE_WINDOW_S) }, NOW);
    expect(p.perMinute).toBe(10);
    expect(p.etaSeconds).toBe(3_000);
  });

  it('says nothing of the time left from too few loads or too short a time, and 0 when done', () => {
    expect(estimateLoadProgress({ total: 100, loaded: 2, recent: 2, recentSince: ago(300) }, NOW).etaSeconds).toBeNull();
    expect(estimateLoadProgress({ total: 100, loaded: 10, recent: 10, recentSince: ago(5) }, NOW).etaSeconds).toBeNull();
    expect(estimateLoadProgress({ total: 100, loaded: 10, recent: 0, recentSince: null }, NOW)).toMatchObject({ remaining: 90, etaSeconds: null, perMinute: null });
    expect(estimateLoadProgress({ total: 100, loaded: 100, recent: 50, recentSince: ago(300) }, NOW)).toMatchObject({ remaining: 0, etaSeconds: 0 });
    // Rows of systems since disconnected never make it more than done.
    expect(estimateLoadProgress({ total: 10, loaded: 12, recent: 0, recentSince: null }, NOW)).toMatchObject({ loaded: 10, remaining: 0 });
  });
});
