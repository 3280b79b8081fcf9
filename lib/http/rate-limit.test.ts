import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { consume, consumeAll } from './rate-limit';

describe('consume', () => {
  it('allows up to the limit, then says how many whole seconds to wait', async () => {
    const limiter = new RateLimiterMemory({ points: 2, duration: 60 });
    expect(await consume(limiter, 'k')).toBeNull();
    expect(await consume(limiter, 'k')).toBeNull();
    const wait = await consume(limiter, 'k');
    expect(wait).toBeGreaterThanOrEqual(59);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await consume(limiter, 'other')).toBeNull();
  });

  it('lets a store failure propagate (fail closed)', async () => {
    const broken = new RateLimiterMemory({ points: 1, duration: 60 });
    broken.consume = () => Promise.reject(new Error('store down'));
    await expect(consume(broken, 'k')).rejects.toThrow('store down');
  });
});

describe('consumeAll', () => {
  it('is null while every limiter allows, else the longest wait', async () => {
    const short = new RateLimiterMemory({ points: 1, duration: 10 });
    const long = new RateLimiterMemory({ points: 5, duration: 100 });
    expect(await consumeAll([short, 'a'], [long, 'b'])).toBeNull();
    const wait = await consumeAll([short, 'a'], [long, 'b']);
    expect(wait).toBeGreaterThanOrEqual(9);
    expect(wait).toBeLessThanOrEqual(10);
  });
});
