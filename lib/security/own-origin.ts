import { isTrustedPeer, type TrustedProxies } from '@/lib/http/client-address';

/**
 * Same-origin means the page's own origin: a state-changing request is the portal's own when it
 * comes from the address the browser used to reach the portal (decision 016). That address is the
 * request's `Host` with the protocol it arrived on — or, from a TRUSTED_PROXIES peer, its
 * `X-Forwarded-Host` / `X-Forwarded-Proto` — and PORTAL_URL's origin besides. A cross-site page
 * cannot set `Host` or `Origin` on a browser's request, so matching them is safe for this check.
 * Pure (settings are passed in): proxy.ts and lib/api/origin.ts share it.
 */

export interface OriginSettings {
  /** PORTAL_URL: the public address, always one of ours. */
  portalUrl: string;
  trustedProxies: TrustedProxies;
}

/** The parts of a request the check reads (a Request, NextRequest or a test's stand-in). */
export interface OriginRequest {
  url: string;
  headers: Headers;
}

const first = (value: string | null): string | undefined => value?.split(',')[0]?.trim() || undefined;

function originOf(protocol: string, host: string): string | undefined {
  try {
    // Through URL so that default ports and letter case compare as the browser writes them.
    return new URL(`${protocol}//${host}`).origin;
  } catch {
    return undefined;
  }
}

/** The origins this request may come from: PORTAL_URL's and the one the browser used. */
export function ownOrigins(request: OriginRequest, settings: OriginSettings): string[] {
  const origins = new Set<string>([new URL(settings.portalUrl).origin]);
  const get = (name: string) => request.headers.get(name) ?? undefined;
  let protocol = new URL(request.url).protocol;
  let host = first(request.headers.get('host'));
  if (isTrustedPeer(get, settings.trustedProxies)) {
    const forwardedProto = first(request.headers.get('x-forwarded-proto'));
    if (forwardedProto === 'https' || forwardedProto === 'http') protocol = `${forwardedProto}:`;
    host = first(request.headers.get('x-forwarded-host')) ?? host;
  }
  const used = host ? originOf(protocol, host) : undefined;
  if (used) origins.add(used);
  return [...origins];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True when a request may change state: safe methods always; otherwise a browser request must come
 * from one of our origins. `Sec-Fetch-Site: same-origin` is the browser's own word that the page
 * and the target share an origin, whatever address was used, so it is enough; `same-site` and
 * `cross-site` are refused. Otherwise the `Origin` must be one of ours. Browsers send one of the
 * two on every cross-site POST, so a request with neither is not a cross-site browser request
 * (server-to-server, curl) and is let through to the handler's own authentication.
 */
export function isSameOriginRequest(method: string, headers: Headers, allowedOrigins: readonly string[]): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  const site = headers.get('sec-fetch-site');
  if (site === 'same-origin') return true;
  if (site !== null && site !== 'none') return false;
  const origin = headers.get('origin');
  if (origin !== null) return allowedOrigins.includes(origin);
  return true;
}

/**
 * The origin a refused request named, for the refusal sentence and the log; null when it named
 * none (refused on Sec-Fetch-Site) or an opaque "null". Clipped: it is the client's text.
 */
export function refusedOrigin(headers: Headers): string | null {
  const origin = headers.get('origin');
  if (origin === null || origin === 'null' || origin === '') return null;
  return origin.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}
