import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Call, SandboxContext } from '../context';
import { iso } from '../encoding';
import { readRules, writeRules } from '../booking-rules';
import { faultsSchema } from '../faults';
import { badRequest, issues, json, notFound, readJsonBody, readText, UUID_RE } from '../http';
import { PORTFOLIO_SYSTEMS_MAX, PRESETS, type Preset } from '../seed';
import { readFixtures, seedData } from '../setup';

// The sandbox's own control routes under /_sandbox (no credentials; no injected faults): fixtures,
// data reset, webhook subscriptions, faults and shapes, and the stored outcome of a request.

const resetBody = z
  .object({
    preset: z.enum(PRESETS as [Preset, ...Preset[]]).optional(),
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
    // The size of a `portfolio` (other presets have a fixed shape).
    systems: z.number().int().min(1).max(PORTFOLIO_SYSTEMS_MAX).optional(),
  })
  .strict();
const noControl = (v: string) => ![...v].some((c) => c < ' ' || c === '\u007f');
const webhookBody = z
  .object({
    url: z.url().max(2048).refine((u) => /^https?:\/\//.test(u), 'must be http(s)').refine(noControl, 'must not contain control characters'),
    secret: z.string().startsWith('whsec_', 'must start with whsec_').min(20).max(256).refine(noControl, 'must not contain control characters'),
  })
  .strict();

const limit = (max: number) => z.number().int().min(1).max(max).nullable().default(null);
const rulesBody = z
  .object({
    timeZone: z.string().min(1).max(64).refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone'),
    groups: z
      .array(
        z
          .object({
            resourceIds: z.array(z.string().regex(UUID_RE, 'must be a UUID')).min(1).max(100),
            maxFuture: limit(50),
            perWindow: z.object({ count: z.number().int().min(1).max(100), days: z.number().int().min(1).max(90) }).strict().nullable().default(null),
            daysAhead: z.number().int().min(0).max(365).nullable().default(null),
            maxConsecutive: limit(24),
            activationMinutes: limit(24 * 60),
          })
          .strict(),
      )
      .max(50)
      .refine((groups) => {
        const rooms = groups.flatMap((g) => g.resourceIds);
        return new Set(rooms).size === rooms.length;
      }, 'a room may be in one group only'),
  })
  .strict();

/** PUT /_sandbox/rules/:deviceId: the system's booking rules by group of rooms (booking-rules.ts); `null` removes them. */
export async function putRules(ctx: SandboxContext, { request, param }: Call): Promise<Response> {
  const deviceId = param('deviceId');
  if (!UUID_RE.test(deviceId)) throw badRequest('deviceId must be a UUID');
  const body = await readJsonBody(request);
  const parsed = body === null ? null : rulesBody.safeParse(body);
  if (parsed && !parsed.success) throw badRequest(issues(parsed.error));
  await writeRules(ctx.sql, deviceId, parsed ? parsed.data : null);
  return json(parsed ? parsed.data : null);
}

/** GET /_sandbox/rules/:deviceId */
export async function getRules(ctx: SandboxContext, { param }: Call): Promise<Response> {
  const deviceId = param('deviceId');
  if (!UUID_RE.test(deviceId)) throw badRequest('deviceId must be a UUID');
  return json(await readRules(ctx.sql, deviceId));
}

/** GET /_sandbox/fixtures */
export async function getFixtures(ctx: SandboxContext): Promise<Response> {
  return json(await readFixtures(ctx.sql, ctx.credentials));
}

/** POST /_sandbox/reset {preset?, seed?, systems?}: new data; credentials, keys and subscriptions stay. */
export async function resetData(ctx: SandboxContext, { request }: Call): Promise<Response> {
  const text = await readText(request);
  const parsed = resetBody.safeParse(text.trim() === '' ? {} : JSON.parse(text));
  if (!parsed.success) throw badRequest(issues(parsed.error));
  const preset = parsed.data.preset ?? ctx.defaults.preset ?? 'demo';
  if (parsed.data.systems !== undefined && preset !== 'portfolio') throw badRequest('systems: the number of systems is only for the portfolio preset.');
  await seedData(ctx, preset, parsed.data.seed ?? ctx.defaults.seed ?? 1, { systems: parsed.data.systems ?? (preset === 'portfolio' ? ctx.defaults.systems : undefined) });
  return json(await readFixtures(ctx.sql, ctx.credentials));
}

/** POST /_sandbox/webhooks {url, secret} */
export async function addWebhook(ctx: SandboxContext, { request }: Call): Promise<Response> {
  const parsed = webhookBody.safeParse(await readJsonBody(request));
  if (!parsed.success) throw badRequest(issues(parsed.error));
  // Idempotent: a portal registering itself at every start keeps one subscription.
  const { rows: existing } = await ctx.sql.query<{ id: string }>(`SELECT id FROM sandbox.webhooks WHERE url = $1 AND secret = $2`, [parsed.data.url, parsed.data.secret]);
  if (existing[0]) return json({ id: existing[0].id }, 200);
  const id = randomUUID();
  await ctx.sql.query(`INSERT INTO sandbox.webhooks (id, url, secret, created_at) VALUES ($1, $2, $3, $4)`, [id, parsed.data.url, parsed.data.secret, ctx.now()]);
  return json({ id }, 201);
}

/** DELETE /_sandbox/webhooks/{id}: the subscription and its undelivered events. */
export async function removeWebhook(ctx: SandboxContext, { param }: Call): Promise<Response> {
  const id = param('id');
  if (!UUID_RE.test(id)) throw badRequest('The webhook id must be a UUID.');
  const { rows } = await ctx.sql.query(`DELETE FROM sandbox.webhooks WHERE id = $1 RETURNING id`, [id]);
  if (rows.length === 0) throw notFound('No such webhook subscription.');
  await ctx.sql.query(`DELETE FROM sandbox.outbox WHERE subscription_id = $1 AND delivered_at IS NULL`, [id]);
  return new Response(null, { status: 204 });
}

/** PUT /_sandbox/faults: replaces the whole set (faults.ts: failures, latency, shapes, afterAccept...). */
export async function putFaults(ctx: SandboxContext, { request }: Call): Promise<Response> {
  const parsed = faultsSchema.safeParse(await readJsonBody(request));
  if (!parsed.success) throw badRequest(issues(parsed.error));
  ctx.faults.set(parsed.data);
  return json(ctx.faults.faults);
}

/** GET /_sandbox/faults */
export function getFaults(ctx: SandboxContext): Promise<Response> {
  return Promise.resolve(json(ctx.faults.faults));
}

/** DELETE /_sandbox/faults */
export function clearFaults(ctx: SandboxContext): Promise<Response> {
  ctx.faults.clear();
  return Promise.resolve(new Response(null, { status: 204 }));
}

/** GET /_sandbox/stats: requests served since the start or the last reset, by route template and by system (stats.ts). */
export function getStats(ctx: SandboxContext): Promise<Response> {
  return Promise.resolve(json(ctx.stats.view()));
}

/** DELETE /_sandbox/stats: counting starts again from zero. */
export function clearStats(ctx: SandboxContext): Promise<Response> {
  ctx.stats.reset();
  return Promise.resolve(new Response(null, { status: 204 }));
}

/** GET /_sandbox/requests/{correlationId}: the stored outcome of one accepted request (for demos and debugging without a webhook). */
export async function getRequest(ctx: SandboxContext, { param }: Call): Promise<Response> {
  const correlationId = param('correlationId');
  if (!UUID_RE.test(correlationId)) throw badRequest('The correlation id must be a UUID.');
  const { rows } = await ctx.sql.query<{ operation: string; accepted_at: unknown; processed_at: unknown; outcome: unknown }>(
    `SELECT operation, accepted_at, processed_at, outcome FROM sandbox.requests WHERE correlation_id = $1`,
    [correlationId],
  );
  const row = rows[0];
  if (!row) throw notFound('No such request.');
  const outcome = typeof row.outcome === 'string' ? (JSON.parse(row.outcome) as unknown) : row.outcome;
  return json({ correlationId, operation: row.operation, acceptedAt: iso(row.accepted_at), processedAt: row.processed_at ? iso(row.processed_at) : null, event: outcome ?? null });
}

/** An ISO 8601 date-time with a zone (with or without seconds, as the service's own). */
const instant = z.string().max(40).regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/).refine((v) => !Number.isNaN(Date.parse(v)), 'not a date-time');

const panelBody = z
  .object({
    resourceId: z.string().regex(UUID_RE),
    startTime: instant,
    endTime: instant,
    userId: z.string().regex(UUID_RE).optional(),
  })
  .strict()
  .refine((b) => Date.parse(b.endTime) > Date.parse(b.startTime), 'endTime must be after startTime');

/**
 * POST /_sandbox/panel-reservations {resourceId, startTime, endTime, userId?}: a booking made outside
 * the portal — at the laundry room's door panel or in a resident's app — written straight into the
 * service's data: no request, no outcome, no webhook, no booking rules. Only a re-read of the
 * system (or a user's reservations) shows it; bench phase (m) times how soon.
 */
export async function addPanelReservation(ctx: SandboxContext, { request }: Call): Promise<Response> {
  const parsed = panelBody.safeParse(await readJsonBody(request));
  if (!parsed.success) throw badRequest(issues(parsed.error));
  const { rows } = await ctx.sql.query<{ device_id: string }>(`SELECT device_id FROM sandbox.resources WHERE id = $1`, [parsed.data.resourceId]);
  const resource = rows[0];
  if (!resource) throw notFound('No such resource.');
  let owner: { id: string | null; type: 'User' | 'Group' | 'Service' } = { id: null, type: 'Service' };
  if (parsed.data.userId) {
    const { rows: users } = await ctx.sql.query<{ id: string; user_group_id: string | null }>(`SELECT id, user_group_id FROM sandbox.users WHERE id = $1 AND device_id = $2`, [parsed.data.userId, resource.device_id]);
    const user = users[0];
    if (!user) throw notFound('No such user on the resource\u2019s system.');
    owner = user.user_group_id ? { id: user.user_group_id, type: 'Group' } : { id: user.id, type: 'User' };
  }
  const id = randomUUID();
  await ctx.sql.query(
    `INSERT INTO sandbox.reservations (id, device_id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time) VALUES ($1, $2, $3, $4, $5, $6, 'Unused', $7, $8)`,
    [id, resource.device_id, parsed.data.resourceId, parsed.data.userId ?? null, owner.id, owner.type, iso(new Date(parsed.data.startTime)), iso(new Date(parsed.data.endTime))],
  );
  return json({ id, deviceId: resource.device_id }, 201);
}
