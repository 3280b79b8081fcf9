import { describe, expect, it } from 'vitest';
import { cachedPromise, cachePerOwner, createCache } from './cache';

describe('lib/cache', () => {
  it('keeps at most max entries, the least recently used dropped first', () => {
    const cache = createCache<{ n: number }>('test-bound', { max: 2 });
    cache.set('a', { n: 1 });
    cache.set('b', { n: 2 });
    cache.get('a');
    cache.set('c', { n: 3 });
    expect([...cache.keys()].sort()).toEqual(['a', 'c']);
  });

  it('bounds by size too when asked: small entries stay many, one large one pushes the rest out', () => {
    const cache = createCache<{ size: number }>('test-size', { max: 1_000, maxSize: 100, sizeOf: (v) => v.size });
    for (let i = 0; i < 50; i += 1) cache.set(`small-${i}`, { size: 2 });
    expect(cache.size).toBe(50);
    cache.set('large', { size: 90 });
    expect(cache.has('large')).toBe(true);
    expect(cache.calculatedSize).toBeLessThanOrEqual(100);
    expect(cache.size).toBe(1 + 5);
    // An entry larger than the bound is not kept at all.
    cache.set('huge', { size: 101 });
    expect(cache.has('huge')).toBe(false);
  });

  it('reuses a loaded promise, and drops a failed one so the next caller loads again', async () => {
    const cache = createCache<Promise<number>>('test-promise', { max: 10, ttlMs: 60_000 });
    let loads = 0;
    const ok = () => cachedPromise(cache, 'k', () => Promise.resolve(++loads));
    expect(await ok()).toBe(1);
    expect(await ok()).toBe(1);
    await expect(cachedPromise(cache, 'bad', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await Promise.resolve();
    expect(cache.has('bad')).toBe(false);
  });

  it('forgets an entry once its ttl has passed', async () => {
    const cache = createCache<{ v: string }>('test-ttl', { max: 10, ttlMs: 20 });
    cache.set('k', { v: 'x' });
    expect(cache.get('k')).toEqual({ v: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(cache.get('k')).toBeUndefined();
  });

  it('keeps one cache per owner', () => {
    const of = cachePerOwner<object, { v: number }>('test-owner', { max: 5 });
    const one = {};
    of(one).set('k', { v: 1 });
    expect(of(one).get('k')).toEqual({ v: 1 });
    expect(of({}).get('k')).toBeUndefined();
  });
});
