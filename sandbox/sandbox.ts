import type { SqlRunner } from '@/shared/sql-runner';
import { requireKey, requireToken } from './auth';
import type { Call, KeyedCall, SandboxContext } from './context';
import { FaultState } from './faults';
import { HttpProblem, json, notFound, problem, sleep } from './http';
import { findRoute, paramReader, route } from './router';
import { RequestStats } from './stats';
import { cancelReservation, createReservation } from './routes/bookings';
import { addPanelReservation, addWebhook, clearFaults, clearStats, getFaults, getFixtures, getRequest, getRules, getStats, putFaults, putRules, removeWebhook, resetData } from './routes/control';
import {
  fetchUsers,
  listReservations,
  listResources,
  listTimeSchedules,
  listUserGroups,
  userReservations,
  usersByApartment,
  usersByEmail,
  usersByReference,
} from './routes/reservations';
import { generateApiKey, issueToken } from './routes/token';
import { DEFAULT_QUOTA_PER_GROUP, type Preset } from './seed';
import { initSandbox, readFixtures, type SandboxFixtures } from './setup';
import { backgroundLoop, workOnce } from './worker';

export type { SandboxFixtures } from './setup';

export interface SandboxOptions {
  sql: SqlRunner;
  /** Data loaded at start() when the schema is empty, or when it holds another preset/seed than given. */
  preset?: Preset;
  /** Deterministic data (default 1). */
  seed?: number;
  /** How many systems the `portfolio` preset holds (default 1,000; other presets have a fixed shape). */
  systems?: number;
  tokenTtlSeconds?: number;
  webhookRetryScheduleMs?: number[];
  bookingHorizonDays?: number;
  quotaPerGroup?: number;
  /**
   * Read Week schedules as wall-clock minutes in this IANA zone, as a real system may mean them
   * (default: UTC minutes, the interface's literal reading). Only booking checks change.
   */
  scheduleTimeZone?: string;
  now?: () => Date;
  webhooks?: { url: string; secret: string }[];
  /** Background worker poll interval (default 500 ms; an accepted request wakes the worker at once). */
  pollIntervalMs?: number;
  /** Start the queue and outbox workers in start() (default true; tests use drain()). */
  workers?: boolean;
}

export interface Sandbox {
  fetch(request: Request): Promise<Response>;
  start(): Promise<void>;
  stop(): Promise<void>;
  fixtures(): Promise<SandboxFixtures>;
  drain(): Promise<void>;
}

export const DEFAULT_RETRY_SCHEDULE_MS = [1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000];

/** /_sandbox/*: no credentials, no injected faults; anything else is 404. */
const controlRoutes = [
  route('GET', '/_sandbox/fixtures', getFixtures),
  route('POST', '/_sandbox/reset', resetData),
  route('POST', '/_sandbox/webhooks', addWebhook),
  route('DELETE', '/_sandbox/webhooks/:id', removeWebhook),
  route('PUT', '/_sandbox/faults', putFaults),
  route('GET', '/_sandbox/faults', getFaults),
  route('GET', '/_sandbox/requests/:correlationId', getRequest),
  route('DELETE', '/_sandbox/faults', clearFaults),
  route('GET', '/_sandbox/stats', getStats),
  route('DELETE', '/_sandbox/stats', clearStats),
  route('PUT', '/_sandbox/rules/:deviceId', putRules),
  route('GET', '/_sandbox/rules/:deviceId', getRules),
  route('POST', '/_sandbox/panel-reservations', addPanelReservation),
];

/** Behind injected faults, the token endpoint (any method; it answers 405 itself). */
const tokenRoutes = [route('*', '/:tenant/oauth2/v2.0/token', issueToken)];

/** /v1 with a bearer token only (any method; it answers 405 itself). */
const bearerRoutes = [route('*', '/v1/apikey/generate/:approvalId', generateApiKey)];

/** /v1 with a bearer token and an API key; an unmatched path is 405 unless GET, then 404. */
const keyedRoutes = [
  route<KeyedCall>('POST', '/v1/reservations', createReservation),
  route<KeyedCall>('DELETE', '/v1/reservations/:reservationId', cancelReservation),
  route<KeyedCall>('GET', '/v1/reservations/:deviceId/all', listReservations),
  route<KeyedCall>('GET', '/v1/reservations/timeschedules/:deviceId/all', listTimeSchedules),
  route<KeyedCall>('GET', '/v1/reservations/resources/:deviceId/all', listResources),
  route<KeyedCall>('GET', '/v1/usergroups/:deviceId/all', listUserGroups),
  route<KeyedCall>('GET', '/v1/reservations/users/reference/:referenceId', usersByReference),
  route<KeyedCall>('GET', '/v1/reservations/users/email/:email', usersByEmail),
  route<KeyedCall>('GET', '/v1/reservations/users/apartment/:apartmentId', usersByApartment),
  route<KeyedCall>('GET', '/v1/reservations/users/fetch/:deviceId', fetchUsers),
  route<KeyedCall>('GET', '/v1/reservations/users/:userId/reservations', userReservations),
];

/** The route template a request of the service's routes counts under, and the system its path names. */
function countedAs(method: string, seg: readonly string[], url: URL): { template: string; deviceId: string | null; firstPage: boolean } {
  const found =
    findRoute(tokenRoutes, method, seg) ?? findRoute(bearerRoutes, method, seg) ?? findRoute(keyedRoutes, method, seg);
  if (!found) return { template: `${method} (unmatched)`, deviceId: null, firstPage: false };
  const path = found.route.segments.map((part) => (part.startsWith(':') ? `{${part.slice(1)}}` : part)).join('/');
  const template = `${found.route.method === '*' ? method : found.route.method} /${path}`;
  const deviceId = found.params.get('deviceId')?.toLowerCase() ?? null;
  return { template, deviceId, firstPage: path.endsWith('/all') && !url.searchParams.has('continuationToken') };
}

// PostgreSQL errors that only bad input can cause (data exceptions, class 22; program limits, 54).
const isInputError = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|54)/.test(code);
};

/** Hang, latency and injected failures of the fault settings; the answer to send instead, if any. */
async function injectedFault(faults: FaultState, request: Request, path: string, isToken: boolean): Promise<Response | undefined> {
  const hang = faults.hangMs(path);
  if (hang > 0) await sleep(hang);
  const latency = faults.latency();
  if (latency > 0) await sleep(latency);
  const injected = faults.injectedFailure(request.method, path, isToken);
  if (!injected) return undefined;
  const headers: Record<string, string> = injected.retryAfter !== undefined ? { 'retry-after': String(injected.retryAfter) } : {};
  if (isToken) return json({ error: 'temporarily_unavailable', error_description: 'Injected fault.' }, injected.status, headers);
  return problem(injected.status, injected.status === 429 ? 'Too Many Requests' : 'Injected Fault', 'Injected by the sandbox fault settings.', headers);
}

async function dispatch(ctx: SandboxContext, request: Request, url: URL, seg: string[]): Promise<Response> {
  const call = (params: Map<string, string>): Call => ({ request, url, param: paramReader(params) });
  if (seg[0] === '_sandbox') {
    const found = findRoute(controlRoutes, request.method, seg);
    if (!found) throw notFound();
    return await found.route.handle(ctx, call(found.params));
  }
  const token = findRoute(tokenRoutes, request.method, seg);
  if (!token && seg[0] !== 'v1') return problem(404, 'Not Found', 'No such route.');
  const fault = await injectedFault(ctx.faults, request, url.pathname, token !== undefined);
  if (fault) return fault;
  if (token) return await token.route.handle(ctx, call(token.params));
  await requireToken(ctx, request);
  const bearer = findRoute(bearerRoutes, request.method, seg);
  if (bearer) return await bearer.route.handle(ctx, call(bearer.params));
  const key = await requireKey(ctx, request);
  const keyed = findRoute(keyedRoutes, request.method, seg);
  if (keyed) return await keyed.route.handle(ctx, { ...call(keyed.params), key });
  if (request.method !== 'GET') throw new HttpProblem(405, 'Method Not Allowed', `${request.method} is not allowed here.`);
  throw notFound();
}

export function createSandbox(options: SandboxOptions): Sandbox {
  const { sql } = options;
  const now = options.now ?? (() => new Date());
  const quotaPerGroup = options.quotaPerGroup ?? DEFAULT_QUOTA_PER_GROUP;
  const faults = new FaultState();
  const stats = new RequestStats(now);
  const delivery = { sql, now, retrySchedule: options.webhookRetryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS, faults };
  const work = () => workOnce({ sql, now, horizonDays: options.bookingHorizonDays ?? 28, quotaPerGroup, scheduleTimeZone: options.scheduleTimeZone, delivery });
  const loop = backgroundLoop(work, options.pollIntervalMs ?? 500);
  let ready: Promise<SandboxContext> | undefined;

  const ensureReady = () => {
    ready ??= initSandbox({ sql, now, quotaPerGroup, preset: options.preset, seed: options.seed, presetOptions: { systems: options.systems }, webhooks: options.webhooks })
      .then((credentials): SandboxContext => ({
        sql,
        now,
        faults,
        credentials,
        tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
        quotaPerGroup,
        defaults: { preset: options.preset, seed: options.seed, systems: options.systems },
        kick: loop.kick,
        stats,
      }))
      .catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
    return ready;
  };

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    let seg: string[];
    try {
      seg = url.pathname.split('/').filter((p) => p !== '').map((p) => decodeURIComponent(p));
    } catch {
      return problem(400, 'Bad Request', 'The path is not valid percent-encoding.');
    }
    // The service's own routes are counted (GET /_sandbox/stats), whatever the answer.
    const counted = seg[0] === '_sandbox' ? undefined : countedAs(request.method, seg, url);
    const response = await answer(request, url, seg);
    if (counted) stats.record({ ...counted, status: response.status });
    return response;
  }

  async function answer(request: Request, url: URL, seg: string[]): Promise<Response> {
    try {
      return await dispatch(await ensureReady(), request, url, seg);
    } catch (error) {
      if (error instanceof HttpProblem) return error.toResponse();
      if (error instanceof SyntaxError) return problem(400, 'Bad Request', 'The body is not valid JSON.');
      // A safety net: input the routes did not foresee must not look like a service fault.
      if (isInputError(error)) return problem(400, 'Bad Request', 'A value in the request is not valid.');
      return problem(500, 'Internal Server Error', 'The sandbox failed to handle the request.');
    }
  }

  return {
    fetch: handle,
    async fixtures() {
      const ctx = await ensureReady();
      return readFixtures(ctx.sql, ctx.credentials);
    },
    async start() {
      await ensureReady();
      if (options.workers !== false) loop.start();
    },
    stop: () => loop.stop(),
    async drain() {
      await ensureReady();
      await work();
    },
  };
}
