import { describe, expect, it, vi } from 'vitest';
import { forgetSingleton, singleton, singletonPromise } from './singleton';

describe('singleton', () => {
  it('makes one value per name, shared by another copy of the module', async () => {
    const create = vi.fn(() => ({ made: Math.random() }));
    const first = singleton('test-a', create);
    vi.resetModules();
    const other = await import('./singleton');
    expect(other.singleton('test-a', create)).toBe(first);
    expect(create).toHaveBeenCalledTimes(1);
    forgetSingleton('test-a');
    expect(singleton('test-a', create)).not.toBe(first);
  });

  it('forgets a rejected promise so that the next caller tries again', async () => {
    let attempt = 0;
    const make = () => (++attempt === 1 ? Promise.reject(new Error('down')) : Promise.resolve(attempt));
    await expect(singletonPromise('test-b', make)).rejects.toThrow('down');
    await new Promise((r) => setTimeout(r, 0));
    expect(await singletonPromise('test-b', make)).toBe(2);
    expect(await singletonPromise('test-b', make)).toBe(2);
    forgetSingleton('test-b');
  });
});
