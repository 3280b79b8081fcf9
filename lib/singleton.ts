/**
 * Process-wide instances, kept on `globalThis` under one `Symbol.for` key: dev-mode module reloads
 * and bundlers that load a module into several server chunks (instrumentation, route handlers)
 * would otherwise each make their own.
 */
const REGISTRY = Symbol.for('laundry-portal.singletons');

function registry(): Map<string, unknown> {
  const store = globalThis as unknown as Record<symbol, Map<string, unknown> | undefined>;
  return (store[REGISTRY] ??= new Map<string, unknown>());
}

/** The one value named `name` in this process, made by `create` on first use. */
export function singleton<T>(name: string, create: () => T): T {
  const store = registry();
  if (!store.has(name)) store.set(name, create());
  return store.get(name) as T;
}

/**
 * The one promise named `name` in this process. A rejected one is forgotten, so the next caller
 * tries again (a database or service that was down at first use).
 */
export function singletonPromise<T>(name: string, create: () => Promise<T>): Promise<T> {
  const store = registry();
  let value = store.get(name) as Promise<T> | undefined;
  if (!value) {
    const created = create();
    value = created;
    store.set(name, created);
    created.catch(() => {
      if (store.get(name) === created) store.delete(name);
    });
  }
  return value;
}

/** Forgets `name`, so the next use makes it anew (tests). */
export function forgetSingleton(name: string): void {
  registry().delete(name);
}

/** The value named `name` if this process made it already, else undefined (shutdown: close only what is open). */
export function existingSingleton<T>(name: string): T | undefined {
  return registry().get(name) as T | undefined;
}
