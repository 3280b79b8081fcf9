import { LRUCache } from 'lru-cache';
import { singleton } from '@/lib/singleton';

/**
 * Every in-memory cache of the portal: lru-cache with a bound (`max` entries, least recently used
 * dropped first) and, where entries age, a `ttlMs`. Process-wide under a name (kept on globalThis,
 * so dev-mode module reloads share it).
 */
export interface CacheOptions<V = never> {
  /** The most entries kept. */
  max: number;
  /** How long an entry is reused (ms); none: until pushed out or replaced. */
  ttlMs?: number;
  /**
   * A bound by size as well (issue 49: a thousand systems' directories differ a hundredfold in
   * size): the most `sizeOf` summed over the entries, least recently used dropped first.
   */
  maxSize?: number;
  /** An entry's size in `maxSize`'s unit (at least 1). */
  sizeOf?: (value: V) => number;
}

export type Cache<V extends object> = LRUCache<string, V>;

function newCache<V extends object>({ max, ttlMs, maxSize, sizeOf }: CacheOptions<V>): Cache<V> {
  const sized = maxSize !== undefined && sizeOf ? { maxSize, sizeCalculation: (value: V) => Math.max(1, Math.ceil(sizeOf(value))) } : {};
  return new LRUCache<string, V>({ max, ...(ttlMs === undefined ? {} : { ttl: ttlMs }), ...sized });
}

/** The process's cache called `name`. */
export function createCache<V extends object>(name: string, options: CacheOptions<V>): Cache<V> {
  return singleton(`cache:${name}`, () => newCache<V>(options));
}

/**
 * One cache per owner (a database handle: tests open several with the same device ids), dropped
 * with the owner.
 */
export function cachePerOwner<O extends object, V extends object>(name: string, options: CacheOptions<V>): (owner: O) => Cache<V> {
  const caches = singleton(`cache:${name}`, () => new WeakMap<O, Cache<V>>());
  return (owner) => {
    let cache = caches.get(owner);
    if (!cache) caches.set(owner, (cache = newCache<V>(options)));
    return cache;
  };
}

/**
 * The promise kept under `key`, or `load()` kept there; a load that fails is dropped (unless
 * replaced meanwhile) so that the next caller tries again.
 */
export function cachedPromise<T>(cache: Cache<Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit) return hit;
  const value = load();
  cache.set(key, value);
  value.catch(() => {
    if (cache.get(key) === value) cache.delete(key);
  });
  return value;
}
