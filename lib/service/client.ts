import 'server-only';
import type { CircuitBreakerPolicy } from 'cockatiel';
import { z } from 'zod';
import { hasControlCharacters } from '@/lib/http/control-characters';
import { isServiceError, ServiceAuthError, withEffect, type ServiceErrorContext } from './errors';
import { Paginator, type Page, type PageResume } from './paginator';
import {
  DEFAULT_BREAKER,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  defaultBreakerRegistry,
  readRetryPolicy,
  type CallLane,
  type BreakerSettings,
  type RetrySettings,
} from './policies';
import {
  AcceptedSchema,
  salvageAccepted,
  ApiKeySchema,
  CreateReservationInputSchema,
  PAGE_SIZE_MAX,
  ReservationPageEnvelope,
  ReservationSchema,
  ResourcePageEnvelope,
  ResourceSchema,
  TimeSchedulePageEnvelope,
  TimeScheduleSchema,
  UserAccountSchema,
  UserGroupPageEnvelope,
  UserGroupSchema,
  UserLookupEnvelope,
  UserReservationsEnvelope,
  parseItems,
  type SkippedItem,
  type Accepted,
  type ApiKeyGrant,
  type CreateReservationInput,
  type Reservation,
  type Resource,
  type TimeSchedule,
  type UserAccount,
  type UserGroup,
} from './schemas';
import { DEFAULT_REFRESH_MARGIN_SECONDS, TokenProvider } from './token-provider';
import { log } from '@/lib/log';
import { exchange, parseBody, statusError, type FetchLike, type RawResponse } from './transport';

export type { FetchLike } from './transport';

export interface ServiceClientConfig {
  /** Root of the service; paths like `/v1/...` are appended. */
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  /** The global fetch by default; tests pass the sandbox's handler. */
  fetch?: FetchLike;
  /** Per HTTP exchange, body included (default 10 s). */
  timeoutMs?: number;
  /** Renew the token this long before it expires (default 300 s). */
  refreshMarginSeconds?: number;
  retry?: Partial<RetrySettings>;
  breaker?: Partial<BreakerSettings>;
  /** Clock of the token cache (tests). */
  now?: () => number;
  /**
   * Told of every item a list page, lookup or user's reservation list held that the portal could
   * not use (they are logged as well, and left out of the answer). For counting; must not throw.
   */
  onSkipped?: (operation: string, skipped: readonly SkippedItem[]) => void;
}

const ConfigSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }),
  tokenUrl: z.url({ protocol: /^https?$/ }),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  scope: z.string().min(1),
  timeoutMs: z.number().int().positive().optional(),
  refreshMarginSeconds: z.number().nonnegative().optional(),
});

// Inputs checked before anything is sent. Errors are ZodErrors (the API layer answers 422) whose
// messages never contain the value, so a malformed API key is not echoed either.
const ApiKeyInput = z.string().min(1, 'is required').regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');
const IdInput = z.guid('must be a GUID');
/** Longest lookup value sent upstream; real keys (e-mail addresses, apartment and reference ids) are far shorter. */
export const SEGMENT_MAX_LENGTH = 256;
const SegmentInput = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(SEGMENT_MAX_LENGTH, `is longer than ${SEGMENT_MAX_LENGTH} characters`)
  // A NUL or other control character is never part of a real key, and a service may answer it with 500.
  .refine((v) => !hasControlCharacters(v), 'must not contain control characters')
  // URL parsers resolve dot segments even when percent-encoded, so these cannot be sent as values.
  .refine((v) => !/^(\.|%2e){1,2}$/i.test(v), 'cannot be "." or ".."');
const PageSizeInput = z.number().int().min(1).max(PAGE_SIZE_MAX).optional();

function check<S extends z.ZodType>(name: string, schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new z.ZodError(result.error.issues.map((issue) => ({ ...issue, path: [name, ...issue.path] })));
}

const segment = (value: string) => encodeURIComponent(value);
/** How a skipped user is named in the log and the counts. */
const USER_ID_KEYS = ['userId', 'email'] as const;

export interface ListOptions {
  /** 1..100; the service's default is 50. */
  pageSize?: number;
  /** The most pages followed before the list counts as not ending (default LIST_PAGES_MAX). */
  maxPages?: number;
  /** Asked whether to read a page that failed (after the retries) again from the same token (see Paginator). */
  resume?: PageResume;
}
export interface LookupOptions {
  /** Default true; false leaves `reservationResources` out of each user. */
  includeReservationResources?: boolean;
  /**
   * The breaker the lookup passes: `lookups` (default) for searches people type, `reads` for the
   * lookups a booking needs, so that searches failing cannot stop bookings.
   */
  lane?: 'lookups' | 'reads';
}

interface CallSpec<S extends z.ZodType> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Route template, e.g. `/v1/reservations/{deviceId}/all`. */
  template: string;
  /** The concrete path, segments already encoded. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** Absent only for API key generation, which takes the bearer token alone. */
  apiKey?: string;
  schema: S;
  /** Which breaker the call passes (default: reads for GET, writes otherwise). */
  lane?: Exclude<CallLane, 'token'>;
  /** What can still be read from a 2xx body that does not parse (a cut-off answer), if anything. */
  salvage?: (text: string) => z.output<S> | undefined;
}

/**
 * The typed client of the reservation service. Reads are retried (network, timeout, 408, 429,
 * 5xx but 501/505) with capped exponential backoff and jitter, honouring Retry-After; create and
 * cancel are sent once. Every call has a timeout and passes the upstream's circuit breaker.
 * A 401 leads to one forced token refresh and one retry, for writes too: a 401 means the request
 * was refused before anything was executed, so repeating it cannot book twice.
 */
export function createServiceClient(config: ServiceClientConfig) {
  const checked = ConfigSchema.safeParse(config);
  if (!checked.success) {
    // Name the bad settings only; their values may be secret.
    const names = [...new Set(checked.error.issues.map((i) => i.path.map(String).join('.')))];
    throw new Error(`Invalid service client configuration: ${names.join(', ')}`);
  }
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const fetchFn: FetchLike = config.fetch ?? ((request) => fetch(request));
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retrySettings: RetrySettings = { ...DEFAULT_RETRY, ...config.retry };
  const { registry = defaultBreakerRegistry, ...breakerOverrides } = config.breaker ?? {};
  const breakerSettings = { ...DEFAULT_BREAKER, ...breakerOverrides };
  // One breaker per kind of call: lookups failing (for whatever input) must not stop bookings.
  const breakers: Record<Exclude<CallLane, 'token'>, CircuitBreakerPolicy> = {
    reads: registry.get(`${baseUrl}#reads`, breakerSettings),
    lookups: registry.get(`${baseUrl}#lookups`, breakerSettings),
    writes: registry.get(`${baseUrl}#writes`, breakerSettings),
  };
  const readRetry = readRetryPolicy(retrySettings);

  const tokens = new TokenProvider({
    tokenUrl: config.tokenUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    scope: config.scope,
    fetch: fetchFn,
    timeoutMs,
    refreshMarginSeconds: config.refreshMarginSeconds ?? DEFAULT_REFRESH_MARGIN_SECONDS,
    breaker: registry.get(`${config.tokenUrl}#token`, breakerSettings),
    retry: readRetry,
    now: config.now,
  });

  async function call<S extends z.ZodType>(spec: CallSpec<S>, idempotent: boolean): Promise<z.output<S>> {
    const operation = `${spec.method} ${spec.template}`;
    const url = new URL(baseUrl + spec.path);
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const secrets = [config.clientSecret, spec.apiKey].filter((s): s is string => !!s);
    const breaker = breakers[spec.lane ?? (spec.method === 'GET' ? 'reads' : 'writes')];
    const send = (token: string) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (spec.apiKey !== undefined) headers['x-api-key'] = spec.apiKey;
      if (body !== undefined) headers['content-type'] = 'application/json';
      return exchange(url.toString(), { method: spec.method, headers, body }, { fetch: fetchFn, breaker, timeoutMs, operation });
    };
    // A token that could not be had means the request itself never left: nothing was done.
    const token = (get: () => Promise<string>) =>
      get().catch((error: unknown) => {
        throw isServiceError(error) ? withEffect(error, 'none') : error;
      });
    const attempt = async () => {
      const first = await token(() => tokens.getToken());
      let raw = await send(first);
      let used = first;
      if (raw.status === 401) {
        used = await token(() => tokens.forceRefresh(first));
        raw = await send(used);
        if (raw.status === 401) {
          throw new ServiceAuthError('token', 'the service refused the access token, also after a refresh', { operation, status: 401 });
        }
      }
      const scrub = (text: string) => scrubSecrets(text, [...secrets, used]);
      return interpret(raw, spec, { operation, status: raw.status }, scrub);
    };
    return idempotent ? readRetry.execute(attempt) : attempt();
  }

  const read = <S extends z.ZodType>(spec: Omit<CallSpec<S>, 'method'>) => call({ ...spec, method: 'GET' }, true);

  /** Logs and reports the items of one answer that were left out. */
  function reportSkipped(operation: string, skipped: readonly SkippedItem[]): void {
    if (skipped.length === 0) return;
    log.warn('service answer held unusable items; skipped them', { operation, count: skipped.length, samples: skipped.slice(0, 5) });
    try {
      config.onSkipped?.(operation, skipped);
    } catch (error) {
      log.error('onSkipped observer failed', { operation, error });
    }
  }

  /**
   * Reads an answer's envelope (the array and the token; a body that is not even that is a
   * contract error), then each item on its own: one unusable item is skipped, not the page.
   */
  async function readItems<T extends z.ZodType>(
    spec: Omit<CallSpec<z.ZodType<unknown[]>>, 'method' | 'schema'> & { envelope: z.ZodType<unknown[]> },
    item: T,
    idKeys: readonly string[],
    defaults?: Record<string, unknown>,
  ): Promise<z.output<T>[]> {
    const raw = await read({ ...spec, schema: spec.envelope });
    const { items, skipped } = parseItems(item, raw, { idKeys, defaults });
    reportSkipped(`GET ${spec.template}`, skipped);
    return items;
  }

  /** A Paginator over one of the four list endpoints, validating each item on its own. */
  function list<S extends z.ZodType, K extends string>(
    apiKey: string,
    deviceId: string,
    options: ListOptions,
    template: string,
    pathOf: (device: string) => string,
    envelope: z.ZodType<Record<K, unknown[]> & { continuationToken: string | null }>,
    field: K,
    item: S,
  ): Paginator<z.output<S>> {
    const key = check('apiKey', ApiKeyInput, apiKey);
    const device = check('deviceId', IdInput, deviceId);
    const pageSize = check('pageSize', PageSizeInput, options.pageSize);
    const operation = `GET ${template}`;
    return new Paginator<z.output<S>>(async (continuationToken): Promise<Page<z.output<S>>> => {
      const page = await read({
        template,
        path: pathOf(segment(device)),
        query: { pageSize: pageSize?.toString(), continuationToken },
        apiKey: key,
        schema: envelope,
      });
      // An item that leaves out its system is of the system asked for.
      const { items, skipped } = parseItems(item, page[field], { defaults: { deviceId: device } });
      reportSkipped(operation, skipped);
      return { items, skipped, continuationToken: page.continuationToken };
    }, operation, options.maxPages, options.resume);
  }

  function lookup(kind: 'reference' | 'email' | 'apartment', name: string, apiKey: string, value: string, options: LookupOptions) {
    const key = check('apiKey', ApiKeyInput, apiKey);
    const checkedValue = check(name, SegmentInput, value);
    const include = check('includeReservationResources', z.boolean().optional(), options.includeReservationResources);
    return readItems(
      {
        template: `/v1/reservations/users/${kind}/{${name}}`,
        path: `/v1/reservations/users/${kind}/${segment(checkedValue)}`,
        query: { includeReservationResources: include === false ? 'false' : undefined },
        apiKey: key,
        envelope: UserLookupEnvelope.transform((body) => body.userAccounts),
        lane: options.lane ?? 'lookups',
      },
      UserAccountSchema,
      USER_ID_KEYS,
    ).catch((error: unknown) => {
      // The interface answers an unknown key with an empty list; a service that answers 404 means the same.
      if (isServiceError(error) && error.kind === 'not-found') return [];
      throw error;
    });
  }

  return {
    /**
     * An access token valid now (the cached one while it lasts), proving the credentials work;
     * for the readiness check. Never log or return it.
     */
    accessToken: (): Promise<string> => tokens.getToken(),

    reservations: {
      list: (apiKey: string, deviceId: string, options: ListOptions = {}): Paginator<Reservation> =>
        list(apiKey, deviceId, options, '/v1/reservations/{deviceId}/all', (d) => `/v1/reservations/${d}/all`, ReservationPageEnvelope, 'reservations', ReservationSchema),

      /** Requests a booking; the outcome arrives as a reservationResult webhook. Sent once. */
      create: async (apiKey: string, input: CreateReservationInput): Promise<Accepted> => {
        const key = check('apiKey', ApiKeyInput, apiKey);
        const body = CreateReservationInputSchema.parse(input);
        return call(
          { method: 'POST', template: '/v1/reservations', path: '/v1/reservations', body, apiKey: key, schema: AcceptedSchema, salvage: salvageAccepted },
          false,
        );
      },

      /** Requests a cancellation; the outcome arrives as a reservationResult webhook. Sent once. */
      cancel: async (apiKey: string, reservationId: string): Promise<Accepted> => {
        const key = check('apiKey', ApiKeyInput, apiKey);
        const id = check('reservationId', IdInput, reservationId);
        return call(
          {
            method: 'DELETE',
            template: '/v1/reservations/{reservationId}',
            path: `/v1/reservations/${segment(id)}`,
            apiKey: key,
            schema: AcceptedSchema,
            salvage: salvageAccepted,
          },
          false,
        );
      },

      /** Every reservation of one user (not paged upstream). */
      forUser: async (apiKey: string, userId: string): Promise<Reservation[]> => {
        const key = check('apiKey', ApiKeyInput, apiKey);
        const id = check('userId', IdInput, userId);
        return readItems(
          {
            template: '/v1/reservations/users/{userId}/reservations',
            path: `/v1/reservations/users/${segment(id)}/reservations`,
            apiKey: key,
            envelope: UserReservationsEnvelope,
          },
          ReservationSchema,
          ['id'],
        );
      },
    },

    timeSchedules: {
      list: (apiKey: string, deviceId: string, options: ListOptions = {}): Paginator<TimeSchedule> =>
        list(apiKey, deviceId, options, '/v1/reservations/timeschedules/{deviceId}/all', (d) => `/v1/reservations/timeschedules/${d}/all`, TimeSchedulePageEnvelope, 'timeSchedules', TimeScheduleSchema),
    },

    resources: {
      list: (apiKey: string, deviceId: string, options: ListOptions = {}): Paginator<Resource> =>
        list(apiKey, deviceId, options, '/v1/reservations/resources/{deviceId}/all', (d) => `/v1/reservations/resources/${d}/all`, ResourcePageEnvelope, 'resources', ResourceSchema),
    },

    userGroups: {
      list: (apiKey: string, deviceId: string, options: ListOptions = {}): Paginator<UserGroup> =>
        list(apiKey, deviceId, options, '/v1/usergroups/{deviceId}/all', (d) => `/v1/usergroups/${d}/all`, UserGroupPageEnvelope, 'userGroups', UserGroupSchema),
    },

    users: {
      byReference: async (apiKey: string, referenceId: string, options: LookupOptions = {}): Promise<UserAccount[]> =>
        lookup('reference', 'referenceId', apiKey, referenceId, options),
      byEmail: async (apiKey: string, email: string, options: LookupOptions = {}): Promise<UserAccount[]> =>
        lookup('email', 'email', apiKey, email, options),
      byApartment: async (apiKey: string, apartmentId: string, options: LookupOptions = {}): Promise<UserAccount[]> =>
        lookup('apartment', 'apartmentId', apiKey, apartmentId, options),
      /** Every user of a system, without reservationResources. */
      all: async (apiKey: string, deviceId: string): Promise<UserAccount[]> => {
        const key = check('apiKey', ApiKeyInput, apiKey);
        const device = check('deviceId', IdInput, deviceId);
        return readItems(
          {
            template: '/v1/reservations/users/fetch/{deviceId}',
            path: `/v1/reservations/users/fetch/${segment(device)}`,
            apiKey: key,
            envelope: UserLookupEnvelope.transform((body) => body.userAccounts),
          },
          UserAccountSchema,
          USER_ID_KEYS,
          { deviceId: device },
        );
      },
    },

    apiKeys: {
      /** Exchanges a system owner's approval id for an API key (bearer token only). */
      generate: async (approvalId: string): Promise<ApiKeyGrant> => {
        const id = check('approvalId', SegmentInput, approvalId);
        return read({ template: '/v1/apikey/generate/{approvalId}', path: `/v1/apikey/generate/${segment(id)}`, schema: ApiKeySchema });
      },
    },
  };
}

export type ServiceClient = ReturnType<typeof createServiceClient>;

function interpret<S extends z.ZodType>(
  raw: RawResponse,
  spec: CallSpec<S>,
  context: ServiceErrorContext,
  scrub: (text: string) => string,
): z.output<S> {
  if (raw.status >= 200 && raw.status < 300) {
    try {
      // An unreadable success answer to a write still means the service took the request.
      return parseBody(raw, spec.schema, { ...context, effect: spec.method === 'GET' ? 'none' : 'unknown' });
    } catch (error) {
      const salvaged = spec.salvage?.(raw.text);
      if (salvaged === undefined) throw error;
      return salvaged;
    }
  }
  if (raw.status === 403) {
    throw spec.apiKey === undefined
      ? new ServiceAuthError('token', 'the service refused the access token for this operation', context)
      : new ServiceAuthError('apiKey', 'the service refused the API key, or the key does not cover this system', context);
  }
  throw statusError(raw, context, scrub);
}

function scrubSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}
