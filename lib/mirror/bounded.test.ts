import { describe, expect, it } from 'vitest';
import { runBounded } from './bounded';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runBounded', () => {
  it('runs every item, never more than the limit at once, a finished one making room for the next', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    const items = Array.from({ length: 20 }, (_, i) => i);
    await runBounded(items, 4, async (i) => {
      running += 1;
      most = Math.max(most, running);
      // Uneven work: a slow item holds one place, not the batch.
      await tick(i % 5 === 0 ? 30 : 2);
      running -= 1;
      done.push(i);
    });
    expect(most).toBe(4);
    expect([...done].sort((a, b) => a - b)).toEqual(items);
    // The slow first item did not hold up the others: many finished before it.
    expect(done.indexOf(0)).toBeGreaterThan(3);
  });

  it('starts them in order, with at least one lane, and at most as many lanes as items', async () => {
    const started: number[] = [];
    let most = 0;
    let running = 0;
    await runBounded([1, 2, 3], 0, async (i) => {
      started.push(i);
      running += 1;
      most = Math.max(most, running);
      await tick(1);
      running -= 1;
    });
    expect(started).toEqual([1, 2, 3]);
    expect(most).toBe(1);
  });

  it('goes on after an item fails, and takes nothing new once told to stop', async () => {
    const seen: number[] = [];
    let stop = false;
    await runBounded([1, 2, 3, 4, 5, 6], 2, async (i) => {
      seen.push(i);
      if (i === 2) throw new Error('one system failed');
      if (i === 3) stop = true;
      await tick(1);
    }, () => stop);
    expect(seen).toContain(3);
    expect(seen).not.toContain(6);
    expect(seen.length).toBeLessThan(6);
  });
});
