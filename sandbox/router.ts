import type { Call, Handler } from './context';

/** A route: a method ('*' for any) and a path of literal and `:name` segments. */
export interface Route<C extends Call = Call> {
  method: string;
  segments: string[];
  handle: Handler<C>;
}

export function route<C extends Call = Call>(method: string, path: string, handle: Handler<C>): Route<C> {
  return { method, segments: path.split('/').filter((p) => p !== ''), handle };
}

/** The first route that takes this method and these (decoded) path segments, with its named segments. */
export function findRoute<C extends Call>(
  routes: readonly Route<C>[],
  method: string,
  seg: readonly string[],
): { route: Route<C>; params: Map<string, string> } | undefined {
  for (const candidate of routes) {
    if (candidate.method !== '*' && candidate.method !== method) continue;
    if (candidate.segments.length !== seg.length) continue;
    const params = new Map<string, string>();
    const matches = candidate.segments.every((part, i) => {
      if (part.startsWith(':')) {
        params.set(part.slice(1), seg[i]!);
        return true;
      }
      return part === seg[i];
    });
    if (matches) return { route: candidate, params };
  }
  return undefined;
}

/** The `param` of a Call over the named segments a route matched. */
export function paramReader(params: ReadonlyMap<string, string>): (name: string) => string {
  return (name) => {
    const value = params.get(name);
    if (value === undefined) throw new Error(`The route has no :${name} segment.`);
    return value;
  };
}
