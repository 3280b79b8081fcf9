import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { SqlRunner } from '@/shared/sql-runner';
import { AFTER_ACCEPT_DEFAULT_DELAY_MS, FaultState, faultsSchema, type Shapes } from './faults';
import { badRequest, checkValue, connectionReset, HttpProblem, json, notFound, problem, readJsonBody, readText, sleep, statusTitle, UUID_RE } from './http';
import { deliverDue, enqueueEvent, type DeliveryContext } from './outbox';
import { processNext } from './processor';
import { DATA_TABLES, migrateSandbox } from './schema';
import { generate, loadSeed, PRESETS, rng, uuidFrom, type Preset, type SeedData } from './seed';
import { ODD_TOKEN_PREFIX, shapeEnums, shapeItems, shapeLabels, shapeScheduleType, withExtras, writeTime } from './shapes';
import { parseSlotTime } from './slots';

export interface SandboxOptions {
  sql: SqlRunner;
  /** Data loaded at start() when the schema is empty, or when it holds another preset/seed than given. */
  preset?: Preset;
  /** Deterministic data (default 1). */
  seed?: number;
  tokenTtlSeconds?: number;
  webhookRetryScheduleMs?: number[];
  bookingHorizonDays?: number;
  quotaPerGroup?: number;
  now?: () => Date;
  webhooks?: { url: string; secret: string }[];
  /** Background worker poll interval (default 500 ms; an accepted request wakes the worker at once). */
  pollIntervalMs?: number;
  /** Start the queue and outbox workers in start() (default true; tests use drain()). */
  workers?: boolean;
}

export interface SandboxFixtures {
  tenantId: string;
  tokenPath: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  approvals: { approvalId: string; deviceIds: string[] }[];
  systems: { deviceId: string; name: string }[];
  residents: SeedData['residents'];
}

export interface Sandbox {
  fetch(request: Request): Promise<Response>;
  start(): Promise<void>;
  stop(): Promise<void>;
  fixtures(): Promise<SandboxFixtures>;
  drain(): Promise<void>;
}

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 100;
export const DEFAULT_RETRY_SCHEDULE_MS = [1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000];

interface Credentials {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  audience: string;
  signingKey: Uint8Array;
}

const reservationBody = z
  .object({
    userId: z.string().regex(UUID_RE, 'must be a UUID'),
    resourceId: z.string().regex(UUID_RE, 'must be a UUID'),
    startTime: z.string(),
    endTime: z.string(),
  })
  .strict();

const resetBody = z.object({ preset: z.enum(PRESETS as [Preset, ...Preset[]]).optional(), seed: z.number().int().min(0).max(2 ** 31 - 1).optional() }).strict();
const noControl = (v: string) => ![...v].some((c) => c < ' ' || c === '\u007f');
const webhookBody = z
  .object({
    url: z.url().max(2048).refine((u) => /^https?:\/\//.test(u), 'must be http(s)').refine(noControl, 'must not contain control characters'),
    secret: z.string().startsWith('whsec_', 'must start with whsec_').min(20).max(256).refine(noControl, 'must not contain control characters'),
  })
  .strict();

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
const b64url = (buf: Buffer | Uint8Array) => Buffer.from(buf).toString('base64url');
const toDate = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));
const iso = (value: unknown) => toDate(value).toISOString().replace('.000Z', 'Z');

// Display-only fields that the `nullLabels`/`missingOptional`/`emptyLabels` shapes blank out.
const RESOURCE_LABELS = ['name', 'description'] as const;
const GROUP_LABELS = ['name', 'apartmentId', 'referenceId'] as const;
const USER_LABELS = ['name', 'email'] as const;

// PostgreSQL errors that only bad input can cause (data exceptions, class 22; program limits, 54).
const isInputError = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|54)/.test(code);
};

/** Constant-time string comparison; lengths compared in bytes (timingSafeEqual throws on unequal lengths). */
function sameBytes(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function issues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`).join('; ');
}

type Row = Record<string, unknown>;

export function createSandbox(options: SandboxOptions): Sandbox {
  const sql = options.sql;
  const now = options.now ?? (() => new Date());
  const ttl = options.tokenTtlSeconds ?? 3600;
  const horizonDays = options.bookingHorizonDays ?? 28;
  const quota = options.quotaPerGroup ?? 2;
  const retrySchedule = options.webhookRetryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS;
  const faults = new FaultState();
  let creds: Credentials | undefined;
  let ready: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  const delivery: DeliveryContext = { sql, now, retrySchedule, faults };

  async function loadCredentials(seed: number): Promise<Credentials> {
    const { rows } = await sql.query<{ key: string; value: string }>(`SELECT key, value FROM sandbox.meta`);
    const meta = new Map(rows.map((r) => [r.key, r.value]));
    if (!meta.has('client_id')) {
      // Deterministic per seed (it is a sandbox); the signing key is random and persisted.
      const r = rng(seed * 104_729 + 17);
      const values: Record<string, string> = {
        tenant_id: uuidFrom(r),
        client_id: uuidFrom(r),
        client_secret: `sbx~${uuidFrom(r).replaceAll('-', '')}`,
        audience: uuidFrom(r),
        signing_key: b64url(randomBytes(32)),
      };
      for (const [key, value] of Object.entries(values)) {
        await sql.query(`INSERT INTO sandbox.meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [key, value]);
      }
      return loadCredentials(seed);
    }
    return {
      tenantId: meta.get('tenant_id')!,
      clientId: meta.get('client_id')!,
      clientSecret: meta.get('client_secret')!,
      audience: meta.get('audience')!,
      signingKey: Buffer.from(meta.get('signing_key')!, 'base64url'),
    };
  }

  async function seedData(preset: Preset, seed: number): Promise<void> {
    const data = generate(preset, seed, now(), quota);
    await sql.transaction(async (tx) => {
      await tx.exec(`TRUNCATE ${DATA_TABLES.join(', ')}`);
      await loadSeed(tx, data);
      await tx.query(
        `INSERT INTO sandbox.meta (key, value) VALUES ('residents', $1), ('preset', $2), ('seed', $3)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [JSON.stringify(data.residents), preset, String(seed)],
      );
    });
  }

  async function init(): Promise<void> {
    await migrateSandbox(sql);
    creds = await loadCredentials(options.seed ?? 1);
    const { rows } = await sql.query<{ key: string; value: string }>(
      `SELECT key, value FROM sandbox.meta WHERE key IN ('preset', 'seed') AND EXISTS (SELECT 1 FROM sandbox.systems)`,
    );
    const stored = new Map(rows.map((r) => [r.key, r.value]));
    // Seed when empty, or when the caller asked explicitly for other data than is stored;
    // without explicit options whatever is stored (e.g. after a reset) is kept.
    const mismatch =
      (options.preset !== undefined && stored.get('preset') !== options.preset) ||
      (options.seed !== undefined && stored.get('seed') !== String(options.seed));
    if (stored.size === 0 || mismatch) await seedData(options.preset ?? 'demo', options.seed ?? 1);
    for (const hook of options.webhooks ?? []) {
      await sql.query(
        `INSERT INTO sandbox.webhooks (id, url, secret, created_at)
         SELECT $1, $2, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM sandbox.webhooks WHERE url = $2 AND secret = $3)`,
        [randomUUID(), hook.url, hook.secret, now()],
      );
    }
  }

  const ensureReady = () => {
    ready ??= init().catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  // ---- background work --------------------------------------------------------------------

  async function workOnce(): Promise<void> {
    for (let i = 0; i < 500; i++) {
      const processed = await processNext({ sql, now, horizonDays, quota, enqueue: (tx, event) => enqueueEvent(tx, delivery, event) });
      if (!processed) break;
    }
    await deliverDue(delivery);
  }

  function tick(): void {
    if (stopped || running) return;
    running = workOnce()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, options.pollIntervalMs ?? 500);
      });
  }

  function kick(): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, 0);
  }

  // ---- auth -----------------------------------------------------------------------------------

  const issuer = (c: Credentials) => `https://login.sandbox.invalid/${c.tenantId}/v2.0`;

  async function requireToken(request: Request): Promise<void> {
    const c = creds!;
    const header = request.headers.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const unauthorized = (detail: string) =>
      new HttpProblem(401, 'Unauthorized', detail, { 'www-authenticate': 'Bearer error="invalid_token"' });
    if (!match) throw unauthorized('A bearer access token is required.');
    try {
      await jwtVerify(match[1]!, c.signingKey, {
        algorithms: ['HS256'],
        audience: `api://${c.audience}`,
        issuer: issuer(c),
        currentDate: now(),
      });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ERR_JWT_EXPIRED') throw unauthorized('The access token has expired.');
      if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') throw unauthorized('The access token is not valid for this API.');
      throw unauthorized('The access token is invalid.');
    }
  }

  /** Devices covered by the request's API key; 403 when the key is missing or unknown. */
  async function requireKey(request: Request): Promise<{ approvalId: string; deviceIds: string[] }> {
    const key = request.headers.get('x-api-key');
    if (!key) throw new HttpProblem(403, 'Forbidden', 'An x-api-key header is required.');
    const { rows } = await sql.query<{ approval_id: string; device_ids: string[] }>(
      `SELECT k.approval_id, a.device_ids::text[] AS device_ids FROM sandbox.api_keys k
       JOIN sandbox.approvals a ON a.id = k.approval_id WHERE k.key_hash = $1`,
      [hashKey(key)],
    );
    const row = rows[0];
    if (!row) throw new HttpProblem(403, 'Forbidden', 'The API key is not valid.');
    return { approvalId: row.approval_id, deviceIds: row.device_ids };
  }

  function requireDevice(deviceIds: string[], deviceId: string): void {
    checkValue('deviceId', deviceId);
    if (!UUID_RE.test(deviceId)) throw badRequest('deviceId must be a UUID.');
    if (!deviceIds.includes(deviceId.toLowerCase())) {
      throw new HttpProblem(403, 'Forbidden', 'The API key does not cover this system.');
    }
  }

  // ---- paging ---------------------------------------------------------------------------------

  function pageToken(kind: string, deviceId: string, after: number): string {
    const payload = b64url(Buffer.from(JSON.stringify({ k: kind, d: deviceId, a: after })));
    const mac = createHmac('sha256', creds!.signingKey).update(`page:${payload}`).digest();
    return `${payload}.${b64url(mac)}`;
  }

  function readPageToken(token: string, kind: string, deviceId: string): number {
    const bad = () => badRequest('continuationToken is not valid for this list.');
    // An `oddTokens` prefix is accepted back (also after the switch is cleared) when it arrives intact.
    const real = token.startsWith(ODD_TOKEN_PREFIX) ? token.slice(ODD_TOKEN_PREFIX.length) : token;
    const [payload, mac, extra] = real.split('.');
    if (!payload || !mac || extra !== undefined) throw bad();
    const expected = createHmac('sha256', creds!.signingKey).update(`page:${payload}`).digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw bad();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw bad();
    }
    const p = parsed as { k?: unknown; d?: unknown; a?: unknown };
    if (p.k !== kind || p.d !== deviceId || typeof p.a !== 'number') throw bad();
    return p.a;
  }

  function pageParams(url: URL): { pageSize: number; token: string | null } {
    const raw = url.searchParams.get('pageSize');
    let pageSize = PAGE_SIZE_DEFAULT;
    if (raw !== null) {
      if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > PAGE_SIZE_MAX) {
        throw badRequest(`pageSize must be an integer from 1 to ${PAGE_SIZE_MAX}.`);
      }
      pageSize = Number(raw);
    }
    const token = url.searchParams.get('continuationToken');
    if (token === '') throw badRequest('continuationToken must not be empty.');
    if (token !== null) checkValue('continuationToken', token);
    return { pageSize, token };
  }

  const href = (url: URL) => url.pathname + url.search;

  async function page(url: URL, kind: string, table: string, field: string, deviceId: string, select: string, map: (row: Row) => Row, perItem?: (item: Row, index: number) => Row): Promise<Response> {
    const shapes = faults.shapes;
    const { pageSize, token } = pageParams(url);
    // shortPages: a page shorter than asked for, though more items follow.
    const size = shapes.shortPages ? Math.ceil(pageSize / 2) : pageSize;
    const after = token === null ? 0 : readPageToken(token, kind, deviceId.toLowerCase());
    const { rows } = await sql.query(
      `SELECT ${select}, seq::text AS seq_text FROM ${table} WHERE device_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [deviceId, after, size + 1],
    );
    const items = rows.slice(0, size);
    const last = items[items.length - 1];
    const real = rows.length > size && last ? pageToken(kind, deviceId.toLowerCase(), Number(last.seq_text)) : null;
    const next = real !== null && shapes.oddTokens ? ODD_TOKEN_PREFIX + real : real;
    return json(withExtras({ [field]: shapeItems(items.map(map), shapes, href(url), perItem), continuationToken: next }, shapes, href(url)));
  }

  const reservationDto = (r: Row, shapes: Shapes) => ({
    id: r.id, userId: r.user_id ?? null, ownerId: r.owner_id ?? null, ownerType: r.owner_type, status: r.status,
    resourceId: r.resource_id, startTime: writeTime(toDate(r.start_time), shapes, iso(r.start_time)),
    endTime: writeTime(toDate(r.end_time), shapes, iso(r.end_time)), deviceId: r.device_id,
  });

  function includeResources(url: URL): boolean {
    const v = url.searchParams.get('includeReservationResources');
    if (v === null) return true;
    if (v === 'true') return true;
    if (v === 'false') return false;
    throw badRequest('includeReservationResources must be true or false.');
  }

  /** A `{ userAccounts }` answer (lookups, users/fetch) with its shapes. */
  function userAccounts(url: URL, accounts: Row[]): Response {
    const shapes = faults.shapes;
    const items = shapeItems(accounts, shapes, href(url), (u, i) => shapeLabels(u, i, USER_LABELS, shapes));
    return json(withExtras({ userAccounts: items }, shapes, href(url)));
  }

  async function lookupUsers(url: URL, deviceIds: string[], where: string, value: string, withResources: boolean): Promise<Response> {
    const { rows } = await sql.query(
      `SELECT u.device_id, u.id, u.name, u.email, u.user_group_id,
              ARRAY(SELECT r.id::text FROM sandbox.resources r WHERE r.device_id = u.device_id
                    AND NOT (r.id = ANY(u.excluded_resource_ids)) ORDER BY r.seq) AS resource_ids
       FROM sandbox.users u LEFT JOIN sandbox.user_groups g ON g.id = u.user_group_id
       WHERE u.device_id = ANY($1::uuid[]) AND ${where} ORDER BY u.device_id, u.seq`,
      [deviceIds, value],
    );
    return userAccounts(url, rows.map((u) => ({
      deviceId: u.device_id, userId: u.id, name: u.name, email: u.email, userGroupId: u.user_group_id ?? null,
      ...(withResources ? { reservationResources: u.resource_ids } : {}),
    })));
  }

  async function accept(method: string, approvalId: string, operation: 'create' | 'cancel', payload: unknown): Promise<Response> {
    const correlationId = randomUUID();
    const timestamp = now();
    await sql.query(
      `INSERT INTO sandbox.requests (correlation_id, operation, approval_id, payload, accepted_at) VALUES ($1, $2, $3, $4, $5)`,
      [correlationId, operation, approvalId, JSON.stringify(payload), timestamp],
    );
    kick();
    const shapes = faults.shapes;
    const body = withExtras({ correlationId, timestamp: writeTime(timestamp, shapes, timestamp.toISOString()) }, shapes, `/v1/reservations/requests/${correlationId}`);
    const status = shapes.acceptStatus ?? 202;
    // afterAccept: the request is recorded and queued above; only the answer goes wrong.
    const spoil = faults.afterAccept(method);
    if (!spoil) return json(body, status);
    switch (spoil.mode) {
      case 'delay':
        await sleep(spoil.delayMs ?? AFTER_ACCEPT_DEFAULT_DELAY_MS);
        return json(body, status);
      case 'unreadable':
        return new Response(`{"correlationId":"${correlationId}","timestamp":`, { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
      case 'status': {
        const failed = spoil.status ?? 500;
        return problem(failed, statusTitle(failed), 'The service failed to answer the request.');
      }
      case 'reset':
        return connectionReset(status);
    }
  }

  // ---- routes ---------------------------------------------------------------------------------

  async function tokenEndpoint(request: Request, tenant: string): Promise<Response> {
    const c = creds!;
    const oauthError = (status: number, error: string, description: string) =>
      json({ error, error_description: description }, status, status === 401 ? { 'www-authenticate': 'Basic realm="sandbox"' } : {});
    if (request.method !== 'POST') return oauthError(405, 'invalid_request', 'Use POST.');
    if (tenant !== c.tenantId) return oauthError(400, 'invalid_request', `Tenant '${tenant}' not found.`);
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
      return oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
    }
    const form = new URLSearchParams(await readText(request));
    let clientId = form.get('client_id');
    let clientSecret = form.get('client_secret');
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
    if (basic) {
      const [id, ...rest] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
      try {
        clientId = decodeURIComponent(id ?? '');
        clientSecret = decodeURIComponent(rest.join(':'));
      } catch {
        return oauthError(400, 'invalid_request', 'The Basic credentials are not valid form-encoding.');
      }
    }
    const grant = form.get('grant_type');
    if (!grant) return oauthError(400, 'invalid_request', 'grant_type is required.');
    if (grant !== 'client_credentials') return oauthError(400, 'unsupported_grant_type', `grant_type '${grant}' is not supported; use client_credentials.`);
    if (!clientId || !clientSecret) return oauthError(400, 'invalid_request', 'client_id and client_secret are required.');
    const idOk = sameBytes(clientId, c.clientId);
    const secretOk = sameBytes(clientSecret, c.clientSecret);
    if (!idOk || !secretOk) return oauthError(401, 'invalid_client', 'Client authentication failed.');
    const scope = form.get('scope');
    if (!scope) return oauthError(400, 'invalid_request', 'scope is required.');
    if (scope !== `api://${c.audience}/.default`) return oauthError(400, 'invalid_scope', `The scope must be api://${c.audience}/.default.`);
    const issuedAt = Math.floor(now().getTime() / 1000);
    const accessToken = await new SignJWT({ tid: c.tenantId, azp: c.clientId, roles: ['Reservations.ReadWrite'] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(issuer(c))
      .setAudience(`api://${c.audience}`)
      .setSubject(c.clientId)
      .setIssuedAt(issuedAt)
      .setNotBefore(issuedAt)
      .setExpirationTime(issuedAt + ttl)
      .setJti(randomUUID())
      .sign(c.signingKey);
    return json({ access_token: accessToken, token_type: 'Bearer', expires_in: ttl, ext_expires_in: ttl });
  }

  async function v1(request: Request, url: URL, seg: string[]): Promise<Response> {
    const method = request.method;
    await requireToken(request);
    // GET /v1/apikey/generate/{approvalId}: bearer only.
    if (seg[1] === 'apikey' && seg[2] === 'generate' && seg.length === 4) {
      if (method !== 'GET') throw new HttpProblem(405, 'Method Not Allowed', 'Use GET.', { allow: 'GET' });
      checkValue('approvalId', seg[3]!);
      const { rows } = await sql.query<{ device_ids: string[] }>(`SELECT device_ids::text[] AS device_ids FROM sandbox.approvals WHERE id = $1`, [seg[3]]);
      const approval = rows[0];
      if (!approval) throw notFound('No such approval.');
      const apiKey = `sbx_${b64url(randomBytes(32))}`;
      await sql.query(`INSERT INTO sandbox.api_keys (key_hash, approval_id, created_at) VALUES ($1, $2, $3)`, [hashKey(apiKey), seg[3], now()]);
      return json({ apiKey, deviceIds: approval.device_ids });
    }
    const key = await requireKey(request);
    const s = seg.slice(1);
    const is = (...parts: (string | null)[]) => parts.length === s.length && parts.every((p, i) => p === null || p === s[i]);

    if (method === 'POST' && is('reservations')) {
      const parsed = reservationBody.safeParse(await readJsonBody(request));
      if (!parsed.success) throw badRequest(issues(parsed.error));
      const start = parseSlotTime(parsed.data.startTime);
      const end = parseSlotTime(parsed.data.endTime);
      if (!start) throw badRequest('startTime must be a valid time in the form yyyy-mm-ddThh:mmZ.');
      if (!end) throw badRequest('endTime must be a valid time in the form yyyy-mm-ddThh:mmZ.');
      if (end <= start) throw badRequest('endTime must be after startTime.');
      return accept(method, key.approvalId, 'create', { ...parsed.data, userId: parsed.data.userId.toLowerCase(), resourceId: parsed.data.resourceId.toLowerCase() });
    }
    if (method === 'DELETE' && is('reservations', null)) {
      checkValue('reservationId', s[1]!);
      if (!UUID_RE.test(s[1]!)) throw badRequest('reservationId must be a UUID.');
      return accept(method, key.approvalId, 'cancel', { reservationId: s[1]!.toLowerCase() });
    }
    if (method !== 'GET') throw new HttpProblem(405, 'Method Not Allowed', `${method} is not allowed here.`);

    if (is('reservations', null, 'all')) {
      requireDevice(key.deviceIds, s[1]!);
      const shapes = faults.shapes;
      return page(url, 'reservations', 'sandbox.reservations', 'reservations', s[1]!, '*', (r) => reservationDto(r, shapes), (r, i) => shapeEnums(r, i, shapes));
    }
    if (is('reservations', 'timeschedules', null, 'all')) {
      requireDevice(key.deviceIds, s[2]!);
      return page(url, 'timeSchedules', 'sandbox.time_schedules', 'timeSchedules', s[2]!, 'id, device_id, schedule', (r) => ({ id: r.id, deviceId: r.device_id, scheduleType: 'Week', schedule: r.schedule }), (r, i) => shapeScheduleType(r, i, faults.shapes));
    }
    if (is('reservations', 'resources', null, 'all')) {
      requireDevice(key.deviceIds, s[2]!);
      return page(url, 'resources', 'sandbox.resources', 'resources', s[2]!, 'id, device_id, name, description, time_schedule_id', (r) => ({ id: r.id, name: r.name, description: r.description, deviceId: r.device_id, timeScheduleId: r.time_schedule_id }), (r, i) => shapeLabels(r, i, RESOURCE_LABELS, faults.shapes));
    }
    if (is('usergroups', null, 'all')) {
      requireDevice(key.deviceIds, s[1]!);
      return page(url, 'userGroups', 'sandbox.user_groups', 'userGroups', s[1]!, 'id, device_id, name, apartment_id, reference_id', (r) => ({ id: r.id, name: r.name, apartmentId: r.apartment_id, referenceId: r.reference_id, deviceId: r.device_id }), (r, i) => shapeLabels(r, i, GROUP_LABELS, faults.shapes));
    }
    if (is('reservations', 'users', 'reference', null)) return lookupUsers(url, key.deviceIds, 'g.reference_id = $2', checkValue('referenceId', s[3]!), includeResources(url));
    if (is('reservations', 'users', 'email', null)) return lookupUsers(url, key.deviceIds, 'lower(u.email) = lower($2)', checkValue('email', s[3]!), includeResources(url));
    if (is('reservations', 'users', 'apartment', null)) return lookupUsers(url, key.deviceIds, 'g.apartment_id = $2', checkValue('apartmentId', s[3]!), includeResources(url));
    if (is('reservations', 'users', 'fetch', null)) {
      requireDevice(key.deviceIds, s[3]!);
      const { rows } = await sql.query(`SELECT device_id, id, name, email, user_group_id FROM sandbox.users WHERE device_id = $1 ORDER BY seq`, [s[3]]);
      return userAccounts(url, rows.map((u) => ({ deviceId: u.device_id, userId: u.id, name: u.name, email: u.email, userGroupId: u.user_group_id ?? null })));
    }
    if (is('reservations', 'users', null, 'reservations')) {
      checkValue('userId', s[2]!);
      if (!UUID_RE.test(s[2]!)) throw badRequest('userId must be a UUID.');
      const { rows: users } = await sql.query(`SELECT 1 FROM sandbox.users WHERE id = $1 AND device_id = ANY($2::uuid[])`, [s[2], key.deviceIds]);
      if (users.length === 0) throw notFound('No such user among the systems this key covers.');
      const { rows } = await sql.query(`SELECT * FROM sandbox.reservations WHERE user_id = $1 ORDER BY start_time, seq`, [s[2]]);
      const shapes = faults.shapes;
      return json(shapeItems(rows.map((r) => reservationDto(r, shapes)), shapes, href(url), (r, i) => shapeEnums(r, i, shapes)));
    }
    throw notFound();
  }

  async function control(request: Request, seg: string[]): Promise<Response> {
    const route = `${request.method} /${seg.join('/')}`;
    if (route === 'GET /_sandbox/fixtures') return json(await fixtures());
    if (route === 'POST /_sandbox/reset') {
      const text = await readText(request);
      const parsed = resetBody.safeParse(text.trim() === '' ? {} : JSON.parse(text));
      if (!parsed.success) throw badRequest(issues(parsed.error));
      await seedData(parsed.data.preset ?? options.preset ?? 'demo', parsed.data.seed ?? options.seed ?? 1);
      return json(await fixtures());
    }
    if (route === 'POST /_sandbox/webhooks') {
      const parsed = webhookBody.safeParse(await readJsonBody(request));
      if (!parsed.success) throw badRequest(issues(parsed.error));
      // Idempotent: a portal registering itself at every start keeps one subscription.
      const { rows: existing } = await sql.query<{ id: string }>(`SELECT id FROM sandbox.webhooks WHERE url = $1 AND secret = $2`, [parsed.data.url, parsed.data.secret]);
      if (existing[0]) return json({ id: existing[0].id }, 200);
      const id = randomUUID();
      await sql.query(`INSERT INTO sandbox.webhooks (id, url, secret, created_at) VALUES ($1, $2, $3, $4)`, [id, parsed.data.url, parsed.data.secret, now()]);
      return json({ id }, 201);
    }
    if (request.method === 'DELETE' && seg[1] === 'webhooks' && seg.length === 3) {
      if (!UUID_RE.test(seg[2]!)) throw badRequest('The webhook id must be a UUID.');
      const { rows } = await sql.query(`DELETE FROM sandbox.webhooks WHERE id = $1 RETURNING id`, [seg[2]]);
      if (rows.length === 0) throw notFound('No such webhook subscription.');
      await sql.query(`DELETE FROM sandbox.outbox WHERE subscription_id = $1 AND delivered_at IS NULL`, [seg[2]]);
      return new Response(null, { status: 204 });
    }
    if (route === 'PUT /_sandbox/faults') {
      const parsed = faultsSchema.safeParse(await readJsonBody(request));
      if (!parsed.success) throw badRequest(issues(parsed.error));
      faults.set(parsed.data);
      return json(faults.faults);
    }
    if (route === 'GET /_sandbox/faults') return json(faults.faults);
    if (request.method === 'GET' && seg[1] === 'requests' && seg.length === 3) {
      // The stored outcome of one accepted request (for demos and debugging without a webhook).
      if (!UUID_RE.test(seg[2]!)) throw badRequest('The correlation id must be a UUID.');
      const { rows } = await sql.query<{ operation: string; accepted_at: unknown; processed_at: unknown; outcome: unknown }>(
        `SELECT operation, accepted_at, processed_at, outcome FROM sandbox.requests WHERE correlation_id = $1`,
        [seg[2]],
      );
      const row = rows[0];
      if (!row) throw notFound('No such request.');
      const outcome = typeof row.outcome === 'string' ? (JSON.parse(row.outcome) as unknown) : row.outcome;
      return json({ correlationId: seg[2], operation: row.operation, acceptedAt: iso(row.accepted_at), processedAt: row.processed_at ? iso(row.processed_at) : null, event: outcome ?? null });
    }
    if (route === 'DELETE /_sandbox/faults') {
      faults.clear();
      return new Response(null, { status: 204 });
    }
    throw notFound();
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    let seg: string[];
    try {
      seg = url.pathname.split('/').filter((p) => p !== '').map((p) => decodeURIComponent(p));
    } catch {
      return problem(400, 'Bad Request', 'The path is not valid percent-encoding.');
    }
    try {
      await ensureReady();
      if (seg[0] === '_sandbox') return await control(request, seg);
      const isToken = seg.length === 4 && seg[1] === 'oauth2' && seg[2] === 'v2.0' && seg[3] === 'token';
      if (!isToken && seg[0] !== 'v1') return problem(404, 'Not Found', 'No such route.');
      const path = url.pathname;
      const hang = faults.hangMs(path);
      if (hang > 0) await sleep(hang);
      const latency = faults.latency();
      if (latency > 0) await sleep(latency);
      const injected = faults.injectedFailure(request.method, path, isToken);
      if (injected) {
        const headers: Record<string, string> = injected.retryAfter !== undefined ? { 'retry-after': String(injected.retryAfter) } : {};
        if (isToken) return json({ error: 'temporarily_unavailable', error_description: 'Injected fault.' }, injected.status, headers);
        return problem(injected.status, injected.status === 429 ? 'Too Many Requests' : 'Injected Fault', 'Injected by the sandbox fault settings.', headers);
      }
      if (isToken) return await tokenEndpoint(request, seg[0]!);
      return await v1(request, url, seg);
    } catch (error) {
      if (error instanceof HttpProblem) return error.toResponse();
      if (error instanceof SyntaxError) return problem(400, 'Bad Request', 'The body is not valid JSON.');
      // A safety net: input the routes did not foresee must not look like a service fault.
      if (isInputError(error)) return problem(400, 'Bad Request', 'A value in the request is not valid.');
      return problem(500, 'Internal Server Error', 'The sandbox failed to handle the request.');
    }
  }

  async function fixtures(): Promise<SandboxFixtures> {
    await ensureReady();
    const c = creds!;
    const [approvals, systems, residents] = await Promise.all([
      sql.query<{ id: string; device_ids: string[] }>(`SELECT id, device_ids::text[] AS device_ids FROM sandbox.approvals ORDER BY seq`),
      sql.query<{ id: string; name: string }>(`SELECT id, name FROM sandbox.systems ORDER BY seq`),
      sql.query<{ value: string }>(`SELECT value FROM sandbox.meta WHERE key = 'residents'`),
    ]);
    return {
      tenantId: c.tenantId,
      tokenPath: `/${c.tenantId}/oauth2/v2.0/token`,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      scope: `api://${c.audience}/.default`,
      approvals: approvals.rows.map((a) => ({ approvalId: a.id, deviceIds: a.device_ids })),
      systems: systems.rows.map((s) => ({ deviceId: s.id, name: s.name })),
      residents: JSON.parse(residents.rows[0]?.value ?? '[]') as SeedData['residents'],
    };
  }

  return {
    fetch: handle,
    fixtures,
    async start() {
      await ensureReady();
      if (options.workers === false || !stopped) return;
      stopped = false;
      kick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
    async drain() {
      await ensureReady();
      await workOnce();
    },
  };
}
