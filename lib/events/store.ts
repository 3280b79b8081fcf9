import 'server-only';
import type { SqlRunner } from '@/lib/db/sql-runner';
import { applyReservationChange } from '@/lib/mirror/store';
import { describeOutcomeError } from '@/lib/reservations/reasons';
import type { PortalEvent, RequestView } from './types';

// Held until commit by every transaction that appends to portal_events, so ids become visible
// in id order: an SSE client resuming after id N can never miss an N-1 that committed later.
const EVENT_LOG_LOCK = 7_201_312;

type Row = Record<string, unknown>;

const iso = (v: unknown): string | null =>
  v === null || v === undefined ? null : new Date(v as string | Date).toISOString();

export function toRequestView(row: Row): RequestView {
  const kind = row.kind as RequestView['kind'];
  const residentName = (row.resident_name as string | null | undefined) ?? null;
  const residentApartment = (row.resident_apartment as string | null | undefined) ?? null;
  const resourceName = (row.resource_name as string | null | undefined) ?? null;
  const errorDescription = (row.error_description as string | null) ?? null;
  return {
    id: row.id as string,
    kind: row.kind as RequestView['kind'],
    status: row.status as RequestView['status'],
    deviceId: row.device_id as string,
    resourceId: (row.resource_id as string | null) ?? null,
    residentUserId: (row.resident_user_id as string | null) ?? null,
    reservationId: (row.reservation_id as string | null) ?? null,
    startTime: iso(row.start_time),
    endTime: iso(row.end_time),
    requestedBy: row.requested_by as string,
    errorCode: (row.error_code as string | null) ?? null,
    errorDescription: (row.error_description as string | null) ?? null,
    createdAt: iso(row.created_at) ?? new Date(0).toISOString(),
    updatedAt: iso(row.updated_at) ?? new Date(0).toISOString(),
    resolvedAt: iso(row.resolved_at),
    outcomeUnknown: row.status === 'pending' && row.outcome_unknown_since !== null && row.outcome_unknown_since !== undefined,
    requestedByName: (row.requested_by_name as string | null | undefined) ?? null,
    residentName,
    residentApartment,
    resourceName,
    reason:
      row.status === 'failed'
        ? describeOutcomeError(row.error_code as string | null, { kind, residentName, residentApartment, resourceName, errorDescription })
        : null,
  };
}

function toPortalEvent(row: Row): PortalEvent {
  return {
    id: Number(row.id),
    deviceId: row.device_id as string,
    type: 'request.updated',
    data: row.data as RequestView,
    createdAt: iso(row.created_at) ?? new Date(0).toISOString(),
  };
}

/** Appends a request's current state to the event log, inside the caller's transaction. */
export async function appendRequestEvent(tx: SqlRunner, request: RequestView): Promise<PortalEvent> {
  // Lock and insert in one statement: the lock is held until commit, and every round trip to the
  // database while holding it (each one waits on this process's event loop) holds up all writers.
  // The row, and with it the id from the sequence, is only formed once the CTE has the lock.
  const { rows } = await tx.query(
    `WITH event_log_lock AS (SELECT pg_advisory_xact_lock($1))
     INSERT INTO portal_events (device_id, type, data)
     SELECT $2, 'request.updated', $3::jsonb FROM event_log_lock
     RETURNING id, device_id, data, created_at`,
    [EVENT_LOG_LOCK, request.deviceId, JSON.stringify(request)],
  );
  return toPortalEvent(rows[0] as Row);
}

export interface ReservationOutcome {
  correlationId: string;
  succeeded: boolean;
  errorCode: string | null;
  errorDescription: string | null;
  reservationId: string | null;
}

/**
 * Resolves the request with this correlation id if it is still open. A request already resolved
 * keeps its first outcome, so duplicates and late deliveries change nothing.
 */
async function resolveRequest(tx: SqlRunner, outcome: ReservationOutcome): Promise<PortalEvent[]> {
  const events = await resolveOpenRequest(tx, { correlationId: outcome.correlationId }, outcome);
  if (events.length === 0) return [];
  await tx.query('UPDATE webhook_events SET applied_at = now() WHERE correlation_id = $1 AND applied_at IS NULL', [
    outcome.correlationId,
  ]);
  return events;
}

/**
 * Resolves one open request (by correlation id or by request id), inside the caller's
 * transaction: sets its final status, applies a successful outcome to the mirror (so the grid
 * shows it at once) and appends the event. Returns [] when the request was not open.
 */
export async function resolveOpenRequest(
  tx: SqlRunner,
  target: { correlationId: string } | { requestId: string },
  outcome: Omit<ReservationOutcome, 'correlationId'>,
): Promise<PortalEvent[]> {
  const byId = 'requestId' in target;
  const { rows } = await tx.query(
    `UPDATE reservation_requests
        SET status = CASE WHEN $2::boolean THEN 'succeeded' ELSE 'failed' END,
            error_code = CASE WHEN $2::boolean THEN NULL ELSE $3 END,
            error_description = CASE WHEN $2::boolean THEN NULL ELSE $4 END,
            reservation_id = COALESCE(reservation_id, $5::uuid),
            resolved_at = now(), updated_at = now()
      WHERE ${byId ? 'id = $1::uuid' : 'correlation_id = $1::uuid'} AND status IN ('sending', 'pending')
      RETURNING *`,
    [byId ? target.requestId : target.correlationId, outcome.succeeded, outcome.errorCode, outcome.errorDescription, outcome.reservationId],
  );
  const row = rows[0];
  if (!row) return [];
  if (outcome.succeeded) await applyToMirror(tx, row);
  return [await appendRequestEvent(tx, toRequestView(row))];
}

/** A confirmed booking enters the mirror, a confirmed cancellation leaves it. */
async function applyToMirror(tx: SqlRunner, row: Row): Promise<void> {
  const deviceId = row.device_id as string;
  const reservationId = (row.reservation_id as string | null) ?? null;
  if (!reservationId) return;
  if (row.kind === 'cancel') {
    await applyReservationChange(tx, { type: 'cancelled', deviceId, reservationId });
    return;
  }
  const resourceId = row.resource_id as string | null;
  const start = iso(row.start_time);
  const end = iso(row.end_time);
  if (!resourceId || !start || !end) return;
  const userId = (row.resident_user_id as string | null) ?? null;
  const groupId = (row.resident_group_id as string | null) ?? null;
  await applyReservationChange(tx, {
    type: 'created',
    reservation: {
      id: reservationId,
      userId,
      ownerId: groupId ?? userId,
      ownerType: groupId ? 'Group' : 'User',
      status: 'Unused',
      resourceId,
      startTime: start,
      endTime: end,
      deviceId,
    },
  });
}

export interface WebhookDelivery {
  webhookId: string;
  eventType: string;
  eventTime: string | null;
  payload: unknown;
  outcome: ReservationOutcome | null;
}

export interface RecordResult {
  /** False when this webhook-id was stored before (a retry or a duplicate). */
  stored: boolean;
  events: PortalEvent[];
  /**
   * An outcome matched no request while some request waits with an unknown outcome: its 202 was
   * lost, so the portal never learned this correlation id. The reconciler matches it from the
   * service's reservations (resident, resource, start, end).
   */
  unmatched: boolean;
}

/** Stores a verified delivery once and applies its outcome, all in one transaction. */
export function recordWebhookDelivery(sql: SqlRunner, delivery: WebhookDelivery): Promise<RecordResult> {
  return sql.transaction(async (tx) => {
    const o = delivery.outcome;
    const inserted = await tx.query(
      `INSERT INTO webhook_events
         (webhook_id, event_type, correlation_id, succeeded, error_code, error_description, payload, event_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)
       ON CONFLICT (webhook_id) DO NOTHING
       RETURNING webhook_id`,
      [
        delivery.webhookId,
        delivery.eventType,
        o?.correlationId ?? null,
        o?.succeeded ?? null,
        o?.errorCode ?? null,
        o?.errorDescription ?? null,
        JSON.stringify(delivery.payload),
        delivery.eventTime,
      ],
    );
    if (inserted.rows.length === 0) return { stored: false, events: [], unmatched: false };
    const events = o ? await resolveRequest(tx, o) : [];
    let unmatched = false;
    if (o && events.length === 0) {
      const known = await tx.query('SELECT 1 FROM reservation_requests WHERE correlation_id = $1', [o.correlationId]);
      if (known.rows.length === 0) {
        const waiting = await tx.query(
          "SELECT 1 FROM reservation_requests WHERE status = 'pending' AND outcome_unknown_since IS NOT NULL LIMIT 1",
        );
        unmatched = waiting.rows.length > 0;
      }
    }
    return { stored: true, events, unmatched };
  });
}

/**
 * Marks a request as accepted upstream. An outcome that arrived before this (the webhook can
 * beat the 202's bookkeeping) is applied at once.
 */
export function markRequestAccepted(sql: SqlRunner, requestId: string, correlationId: string): Promise<PortalEvent[]> {
  return sql.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE reservation_requests SET status = 'pending', correlation_id = $2, updated_at = now()
        WHERE id = $1 AND status = 'sending' RETURNING *`,
      [requestId, correlationId],
    );
    const accepted = rows[0];
    if (!accepted) return [];
    const early = await tx.query(
      `SELECT succeeded, error_code, error_description, payload FROM webhook_events
        WHERE correlation_id = $1 AND event_type = 'reservationResult' ORDER BY received_at LIMIT 1`,
      [correlationId],
    );
    const first = early.rows[0];
    // Applying the outcome updates the system's mirror_state row. Webhook transactions lock that
    // row before the event-log lock; taking it first here too keeps one lock order (no deadlock).
    if (first) await tx.query('SELECT 1 FROM mirror_state WHERE device_id = $1 FOR NO KEY UPDATE', [accepted.device_id]);
    const events = [await appendRequestEvent(tx, toRequestView(accepted))];
    if (first) {
      const data = (first.payload as { eventData?: { data?: { reservationId?: string } } }).eventData?.data;
      events.push(
        ...(await resolveRequest(tx, {
          correlationId,
          succeeded: first.succeeded === true,
          errorCode: (first.error_code as string | null) ?? null,
          errorDescription: (first.error_description as string | null) ?? null,
          reservationId: data?.reservationId ?? null,
        })),
      );
    }
    return events;
  });
}

/**
 * Marks a request whose send has an unknown effect: it left the portal and may have been acted on,
 * so it is pending (not failed) until the reconciler reads the service's truth.
 */
export function markOutcomeUnknown(sql: SqlRunner, requestId: string): Promise<PortalEvent[]> {
  return sql.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE reservation_requests SET status = 'pending', outcome_unknown_since = now(), updated_at = now()
        WHERE id = $1 AND status = 'sending' RETURNING *`,
      [requestId],
    );
    const row = rows[0];
    return row ? [await appendRequestEvent(tx, toRequestView(row))] : [];
  });
}

/** Events after `afterId`, oldest first, for the given systems ('all' for admins). */
export async function loadEventsAfter(
  sql: SqlRunner,
  afterId: number,
  deviceIds: readonly string[] | 'all',
  limit = 500,
): Promise<PortalEvent[]> {
  if (deviceIds !== 'all' && deviceIds.length === 0) return [];
  const { rows } =
    deviceIds === 'all'
      ? await sql.query('SELECT * FROM portal_events WHERE id > $1 ORDER BY id LIMIT $2', [afterId, limit])
      : await sql.query('SELECT * FROM portal_events WHERE id > $1 AND device_id = ANY($2::uuid[]) ORDER BY id LIMIT $3', [
          afterId,
          deviceIds,
          limit,
        ]);
  return rows.map(toPortalEvent);
}

export async function latestEventId(sql: SqlRunner): Promise<number> {
  const { rows } = await sql.query<{ id: string | number | null }>('SELECT max(id) AS id FROM portal_events');
  return Number(rows[0]?.id ?? 0);
}
