import { randomUUID } from 'node:crypto';
import type { SqlRunner } from '@/shared/sql-runner';
import type { WeekSchedule } from './seed';
import { groupRefusal, readRules } from './booking-rules';
import { fitsSchedule, parseSlotTime } from './slots';

export const ERROR_CODES = [
  'SlotUnavailable', 'InvalidTimeSlot', 'QuotaExceeded', 'OutsideBookingWindow', 'InPast', 'UserNotAuthorized',
  'UserNotFound', 'ResourceNotFound', 'ReservationNotFound', 'NotCancellable', 'InternalError',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ReservationResultEvent {
  correlationId: string;
  eventType: 'reservationResult';
  eventData: {
    succeded: boolean;
    errorCode: ErrorCode | null;
    errorDescription: string | null;
    data?: { reservationId: string; operation: 'create' | 'cancel' };
  };
  timestamp: string;
}

export interface ProcessContext {
  sql: SqlRunner;
  now: () => Date;
  horizonDays: number;
  quota: number;
  /** Schedules are wall-clock minutes in this zone (undefined: UTC minutes, the interface's reading). */
  scheduleTimeZone?: string;
  enqueue: (tx: SqlRunner, event: ReservationResultEvent) => Promise<void>;
}

type Outcome = { ok: true; reservationId: string } | { ok: false; code: ErrorCode; description: string };
const fail = (code: ErrorCode, description: string): Outcome => ({ ok: false, code, description });

async function coveredDevices(tx: SqlRunner, approvalId: string): Promise<string[]> {
  const { rows } = await tx.query<{ device_ids: string[] }>(`SELECT device_ids::text[] AS device_ids FROM sandbox.approvals WHERE id = $1`, [approvalId]);
  return rows[0]?.device_ids ?? [];
}

// One resource at a time, across processes too (PostgreSQL scale-out); released at commit.
const lockResource = (tx: SqlRunner, resourceId: string) => tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`sandbox-resource:${resourceId}`]);

async function create(tx: SqlRunner, ctx: ProcessContext, approvalId: string, p: { userId: string; resourceId: string; startTime: string; endTime: string }): Promise<Outcome> {
  const devices = await coveredDevices(tx, approvalId);
  const { rows: resources } = await tx.query<{ id: string; device_id: string; schedule: WeekSchedule }>(
    `SELECT r.id, r.device_id, s.schedule FROM sandbox.resources r JOIN sandbox.time_schedules s ON s.id = r.time_schedule_id
     WHERE r.id = $1 AND r.device_id = ANY($2::uuid[])`,
    [p.resourceId, devices],
  );
  const resource = resources[0];
  if (!resource) return fail('ResourceNotFound', 'No such resource in the systems this API key covers.');
  await lockResource(tx, resource.id);
  const { rows: users } = await tx.query<{ id: string; user_group_id: string | null; excluded: string[] }>(
    `SELECT id, user_group_id, excluded_resource_ids::text[] AS excluded FROM sandbox.users WHERE id = $1 AND device_id = $2`,
    [p.userId, resource.device_id],
  );
  const user = users[0];
  if (!user) return fail('UserNotFound', 'No such user in the resource\'s system.');
  if (user.excluded.includes(resource.id)) return fail('UserNotAuthorized', 'The user is not authorized for this resource.');
  const start = parseSlotTime(p.startTime);
  const end = parseSlotTime(p.endTime);
  if (!start || !end || !fitsSchedule(resource.schedule, start, end, ctx.scheduleTimeZone)) {
    return fail('InvalidTimeSlot', 'The start and end do not match slot boundaries of the resource\'s schedule.');
  }
  const now = ctx.now();
  if (start.getTime() < now.getTime()) return fail('InPast', 'The slot has already started.');
  if (start.getTime() > now.getTime() + ctx.horizonDays * 86_400_000) {
    return fail('OutsideBookingWindow', `Bookings open at most ${ctx.horizonDays} days ahead.`);
  }
  const { rows: overlap } = await tx.query(
    `SELECT 1 FROM sandbox.reservations WHERE resource_id = $1 AND start_time < $3 AND end_time > $2 LIMIT 1`,
    [resource.id, start, end],
  );
  if (overlap.length > 0) return fail('SlotUnavailable', 'The slot is already booked.');
  const ownerType = user.user_group_id ? 'Group' : 'User';
  const ownerId = user.user_group_id ?? user.id;
  // A room in a rule group follows the group's rules (booking-rules.ts); any other room the quota per room.
  const rules = await readRules(tx, resource.device_id);
  const grouped = rules?.groups.some((g) => g.resourceIds.includes(resource.id)) ?? false;
  if (rules && grouped) {
    const refused = await groupRefusal(tx, rules, { ownerId, userId: user.id }, { resourceId: resource.id, start, end, now });
    if (refused) return fail(refused.code, refused.description);
  }
  const { rows: counted } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM sandbox.reservations WHERE resource_id = $1 AND end_time > $2 AND owner_type <> 'Service'
       AND (owner_id = $3 OR user_id = $4 OR user_id IN (SELECT id FROM sandbox.users WHERE user_group_id = $3))`,
    [resource.id, now, ownerId, user.id],
  );
  if (!grouped && (counted[0]?.n ?? 0) >= ctx.quota) {
    return fail('QuotaExceeded', `At most ${ctx.quota} future bookings per apartment on this resource.`);
  }
  const reservationId = randomUUID();
  await tx.query(
    `INSERT INTO sandbox.reservations (id, device_id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time)
     VALUES ($1, $2, $3, $4, $5, $6, 'Unused', $7, $8)`,
    [reservationId, resource.device_id, resource.id, user.id, ownerId, ownerType, start, end],
  );
  return { ok: true, reservationId };
}

async function cancel(tx: SqlRunner, ctx: ProcessContext, approvalId: string, p: { reservationId: string }): Promise<Outcome> {
  const devices = await coveredDevices(tx, approvalId);
  const find = () =>
    tx.query<{ id: string; resource_id: string; owner_type: string; start_time: Date }>(
      `SELECT id, resource_id, owner_type, start_time FROM sandbox.reservations WHERE id = $1 AND device_id = ANY($2::uuid[])`,
      [p.reservationId, devices],
    );
  const first = (await find()).rows[0];
  if (!first) return fail('ReservationNotFound', 'No such reservation in the systems this API key covers.');
  await lockResource(tx, first.resource_id);
  const found = (await find()).rows[0];
  if (!found) return fail('ReservationNotFound', 'No such reservation in the systems this API key covers.');
  if (found.owner_type === 'Service') return fail('NotCancellable', 'A maintenance window cannot be cancelled.');
  if (new Date(found.start_time).getTime() <= ctx.now().getTime()) return fail('NotCancellable', 'Only future reservations can be cancelled.');
  await tx.query(`DELETE FROM sandbox.reservations WHERE id = $1`, [found.id]);
  return { ok: true, reservationId: found.id };
}

/**
 * Processes the oldest queued request in one transaction: the outcome, its reservation change
 * and its outbox rows commit together, so a crash leaves the request queued, never half-done.
 * Returns false when the queue is empty.
 */
export async function processNext(ctx: ProcessContext): Promise<boolean> {
  return ctx.sql.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; correlation_id: string; operation: 'create' | 'cancel'; approval_id: string; payload: unknown }>(
      `SELECT id::text AS id, correlation_id, operation, approval_id, payload FROM sandbox.requests
       WHERE processed_at IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    );
    const request = rows[0];
    if (!request) return false;
    const payload = (typeof request.payload === 'string' ? JSON.parse(request.payload) : request.payload) as never;
    let outcome: Outcome;
    // A failing request must not poison the queue: undo its partial work, report InternalError.
    await tx.exec('SAVEPOINT sandbox_request');
    try {
      outcome = request.operation === 'create'
        ? await create(tx, ctx, request.approval_id, payload)
        : await cancel(tx, ctx, request.approval_id, payload);
      await tx.exec('RELEASE SAVEPOINT sandbox_request');
    } catch {
      await tx.exec('ROLLBACK TO SAVEPOINT sandbox_request');
      outcome = fail('InternalError', 'The request could not be processed.');
    }
    const event: ReservationResultEvent = {
      correlationId: request.correlation_id,
      eventType: 'reservationResult',
      eventData: outcome.ok
        ? { succeded: true, errorCode: null, errorDescription: null, data: { reservationId: outcome.reservationId, operation: request.operation } }
        : { succeded: false, errorCode: outcome.code, errorDescription: outcome.description },
      timestamp: ctx.now().toISOString(),
    };
    await tx.query(`UPDATE sandbox.requests SET processed_at = $2, outcome = $3 WHERE id = $1`, [request.id, ctx.now(), JSON.stringify(event)]);
    await ctx.enqueue(tx, event);
    return true;
  });
}
