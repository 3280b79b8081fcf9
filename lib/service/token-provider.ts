import 'server-only';
import type { CircuitBreakerPolicy, RetryPolicy } from 'cockatiel';
import { log } from '@/lib/log';
import {
  isServiceErrorOf,
  ServiceAuthError,
  ServiceContractError,
  type ServiceErrorContext,
  ServiceRateLimitedError,
  ServiceUnavailableError,
} from './errors';
import { OAuthErrorSchema, TokenResponseSchema } from './schemas';
import { exchange, parseBody, parseRetryAfter, type FetchLike, type RawResponse } from './transport';

export const DEFAULT_REFRESH_MARGIN_SECONDS = 300;
/** After a failed background refresh, the old token keeps serving and the next try waits this long. */
const BACKGROUND_RETRY_PAUSE_MS = 5_000;
const OPERATION = 'POST {token_url}';

export interface TokenProviderOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  fetch: FetchLike;
  timeoutMs: number;
  /** Renew this long before expiry (capped at half the token's lifetime). */
  refreshMarginSeconds: number;
  breaker: CircuitBreakerPolicy;
  retry: RetryPolicy;
  now?: () => number;
}

interface CachedToken {
  token: string;
  expiresAt: number;
  refreshAt: number;
}

/**
 * OAuth2 client-credentials tokens: cached, renewed in the background once inside the refresh
 * margin while the old token keeps serving, and at most one token request in flight however many
 * callers wait. The secret only ever goes into the form body of the token request.
 */
export class TokenProvider {
  private current: CachedToken | undefined;
  private inflight: Promise<string> | undefined;
  private backgroundPausedUntil = 0;
  private readonly now: () => number;

  constructor(private readonly options: TokenProviderOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A token valid now: the cached one, or a fresh one if there is none or it has expired. */
  async getToken(): Promise<string> {
    const now = this.now();
    const cached = this.current;
    if (cached && now < cached.expiresAt) {
      if (now >= cached.refreshAt && !this.inflight && now >= this.backgroundPausedUntil) {
        this.refresh().catch((error: unknown) => {
          this.backgroundPausedUntil = this.now() + BACKGROUND_RETRY_PAUSE_MS;
          log.warn('background token refresh failed; the current token keeps serving', { error: describe(error) });
        });
      }
      return cached.token;
    }
    return this.refresh();
  }

  /**
   * The service refused `rejected`: drop it and fetch another, unless a newer token is already
   * cached or on its way (then that one is the answer). Callers retry once with the result.
   */
  async forceRefresh(rejected: string): Promise<string> {
    const cached = this.current;
    if (cached && cached.token !== rejected && this.now() < cached.expiresAt) return cached.token;
    if (cached?.token === rejected) this.current = undefined;
    return this.refresh();
  }

  /** Forget the cached token (e.g. after the credentials changed). */
  clear(): void {
    this.current = undefined;
  }

  private refresh(): Promise<string> {
    this.inflight ??= this.requestToken().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async requestToken(): Promise<string> {
    const { options } = this;
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: options.clientId,
      client_secret: options.clientSecret,
      scope: options.scope,
    }).toString();
    const context: ServiceErrorContext = { operation: OPERATION };
    try {
      return await options.retry.execute(async () => {
        const startedAt = this.now();
        const raw = await exchange(
          options.tokenUrl,
          {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
            body,
          },
          { fetch: options.fetch, breaker: options.breaker, timeoutMs: options.timeoutMs, operation: OPERATION },
        );
        if (raw.status !== 200) throw tokenError(raw);
        const parsed = parseBody(raw, TokenResponseSchema, { ...context, status: raw.status });
        const lifetimeMs = tokenLifetimeSeconds(parsed.access_token, parsed.expires_in, startedAt) * 1000;
        const marginMs = Math.min(options.refreshMarginSeconds * 1000, lifetimeMs / 2);
        // Counted from when we asked, so clock time spent in transit only makes us renew earlier.
        const expiresAt = startedAt + lifetimeMs;
        this.current = { token: parsed.access_token, expiresAt, refreshAt: expiresAt - marginMs };
        this.backgroundPausedUntil = 0;
        return parsed.access_token;
      });
    } catch (error) {
      // The token request did its own retrying: callers must not multiply it.
      if (isServiceErrorOf(error, 'unavailable') && error.retryable) {
        throw new ServiceUnavailableError(
          'the identity provider could not issue an access token',
          { ...context, status: error.status, reason: error.reason, retryable: false },
          { cause: error },
        );
      }
      if (isServiceErrorOf(error, 'rate-limited') && error.retryable) {
        throw new ServiceRateLimitedError(error.retryAfterSeconds, { ...context, status: 429, retryable: false });
      }
      throw error;
    }
  }
}

/** Assumed life of a token whose response states none and that is not a JWT with `exp`. */
export const ASSUMED_TOKEN_LIFETIME_S = 300;

/** `expires_in` when given; else the JWT's own `exp`; else a short assumed life (renewed early, never late). */
export function tokenLifetimeSeconds(token: string, expiresIn: number | undefined, nowMs: number): number {
  if (expiresIn !== undefined) return expiresIn;
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    if (typeof payload.exp === 'number' && payload.exp * 1000 > nowMs) return Math.max(1, Math.floor((payload.exp * 1000 - nowMs) / 1000));
  } catch {
    // not a JWT: assume a short life
  }
  return ASSUMED_TOKEN_LIFETIME_S;
}

/** Maps a refused token request. Only the RFC 6749 error code is kept: descriptions may echo ids. */
function tokenError(raw: RawResponse): Error {
  const context: ServiceErrorContext = { operation: OPERATION, status: raw.status };
  if (raw.status === 429) return new ServiceRateLimitedError(parseRetryAfter(raw.headers.get('retry-after')) ?? 1, context);
  let code: string | undefined;
  try {
    const parsed = OAuthErrorSchema.safeParse(JSON.parse(raw.text));
    if (parsed.success && /^[a-z_]{1,64}$/.test(parsed.data.error)) code = parsed.data.error;
  } catch {
    // not JSON: fall through with the status alone
  }
  if (raw.status >= 400) {
    return new ServiceAuthError(
      'clientCredentials',
      `the identity provider refused the client credentials (${code ?? `HTTP ${raw.status}`})`,
      context,
    );
  }
  return new ServiceContractError([{ path: '', message: `unexpected status ${raw.status}` }], context);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
}
