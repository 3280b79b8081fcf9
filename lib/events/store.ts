import 'server-only';
import type { SqlRunner } from '@/shared/sql-runner';
import type { PortalEvent, RequestView } from './types';

// Held until commit by every transaction that appends to portal_events, so ids become visible
// in id order: an SSE client resuming after id N can never miss an N-1 that committed later.
const EVENT_LOG_LOCK = 7_201_312;

type Row = Record<string, unknown>;

const iso = (v: unknown): string | null =>
  v === null || v === undefined ? null : new Date(v as string | Date).toISOString();

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

/**
 * Applies an outcome to the booking request it belongs to, inside the webhook's transaction.
 * The owner of booking requests (lib/reservations) supplies it; this module only stores events.
 */
export type OutcomeApplier = (tx: SqlRunner, outcome: ReservationOutcome) => Promise<{ events: PortalEvent[]; unmatched: boolean }>;

/** Stores a verified delivery once and applies its outcome, all in one transaction. */
export function recordWebhookDelivery(sql: SqlRunner, delivery: WebhookDelivery, applyOutcome: OutcomeApplier): Promise<RecordResult> {
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
    if (!o) return { stored: true, events: [], unmatched: false };
    return { stored: true, ...(await applyOutcome(tx, o)) };
  });
}

/** Marks the stored outcomes of a correlation id as applied to their request. */
export async function markOutcomeApplied(tx: SqlRunner, correlationId: string): Promise<void> {
  await tx.query('UPDATE webhook_events SET applied_at = now() WHERE correlation_id = $1 AND applied_at IS NULL', [correlationId]);
}

/** The first stored outcome of a correlation id (a webhook can beat the 202's bookkeeping). */
export async function earlyOutcome(tx: SqlRunner, correlationId: string): Promise<ReservationOutcome | undefined> {
  const { rows } = await tx.query<{ succeeded: boolean | null; error_code: string | null; error_description: string | null; payload: unknown }>(
    `SELECT succeeded, error_code, error_description, payload FROM webhook_events
      WHERE correlation_id = $1 AND event_type = 'reservationResult' ORDER BY received_at LIMIT 1`,
    [correlationId],
  );
  const first = rows[0];
  if (!first) return undefined;
  const data = (first.payload as { eventData?: { data?: { reservationId?: string } } }).eventData?.data;
  return {
    correlationId,
    succeeded: first.succeeded === true,
    errorCode: first.error_code ?? null,
    errorDescription: first.error_description ?? null,
    reservationId: data?.reservationId ?? null,
  };
}

/**
 * A stored success outcome that names this reservation and matched no request (its 202 was lost):
 * marked applied, and its correlation id returned so the request can learn it.
 */
export async function adoptStrayOutcome(tx: SqlRunner, reservationId: string, operation: string): Promise<string | undefined> {
  const { rows } = await tx.query<{ correlation_id: string }>(
    `UPDATE webhook_events SET applied_at = now()
      WHERE webhook_id = (SELECT w.webhook_id FROM webhook_events w
                           WHERE w.applied_at IS NULL AND w.event_type = 'reservationResult' AND w.succeeded
                             AND w.payload->'eventData'->'data'->>'reservationId' = $1
                             AND coalesce(w.payload->'eventData'->'data'->>'operation', $2) = $2
                             AND NOT EXISTS (SELECT 1 FROM reservation_requests r WHERE r.correlation_id = w.correlation_id)
                           ORDER BY w.received_at LIMIT 1)
      RETURNING correlation_id`,
    [reservationId, operation],
  );
  return rows[0]?.correlation_id;
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
