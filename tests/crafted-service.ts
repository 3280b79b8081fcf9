// Tests only: a hand-written reservation service answering crafted JSON, for shapes the sandbox
// never sends (nulls, odd date-times, unknown values). Bodies are keyed by path, plus `?<token>`
// for a continuation page; a function body may answer anything (a fault, a count).
import { createServiceClient, type FetchLike } from '@/lib/service/client';
import { BreakerRegistry } from '@/lib/service/policies';
import type { SkippedItem } from '@/lib/service/schemas';

/** JSON to answer with, or a function answering anything (a fault, a count). */
export type CraftedBody = unknown;

export function craftedFetch(bodies: Record<string, CraftedBody>, observe?: (request: Request) => void): FetchLike {
  return (request) => {
    const url = new URL(request.url);
    if (url.pathname.endsWith('/oauth2/v2.0/token')) {
      return Promise.resolve(Response.json({ access_token: 'crafted-token', token_type: 'Bearer', expires_in: 3600 }));
    }
    observe?.(request);
    const token = url.searchParams.get('continuationToken');
    const body = bodies[url.pathname + (token ? `?${token}` : '')];
    if (typeof body === 'function') return Promise.resolve((body as (r: Request) => Response)(request));
    return Promise.resolve(body === undefined ? Response.json({ title: 'Not Found', status: 404 }, { status: 404 }) : Response.json(body));
  };
}

/** A client of a crafted service: no retries, a breaker of its own. */
export function craftedClient(
  bodies: Record<string, CraftedBody>,
  options: { observe?: (request: Request) => void; onSkipped?: (operation: string, skipped: readonly SkippedItem[]) => void } = {},
) {
  return createServiceClient({
    baseUrl: 'http://crafted.test',
    tokenUrl: 'http://crafted.test/tenant/oauth2/v2.0/token',
    clientId: 'crafted',
    clientSecret: 'crafted-secret',
    scope: 'api://crafted/.default',
    fetch: craftedFetch(bodies, options.observe),
    retry: { maxRetries: 0 },
    breaker: { registry: new BreakerRegistry() },
    onSkipped: options.onSkipped,
  });
}
