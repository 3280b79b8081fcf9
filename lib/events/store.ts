import 'server-only';
import { and, asc, desc, eq, gt, isNull, max, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { equalsAnyUuid, rawRows } from '@/lib/db/raw';
import { queryBuilder, selectRows, type JsonRead } from '@/lib/db/read-together';
import { portalEvents, webhookEvents } from '@/lib/db/schema';
import type { PortalEvent, RequestView } from './types';

// Held until commit by every transaction that appends to portal_events, so ids become visible
// in id order: an SSE client resuming after id N can never miss an N-1 that committed later.
const EVENT_LOG_LOCK = 7_201_312;

// portal_events.data holds what appendRequestEvent wrote: a RequestView (the schema, which
// imports nothing of the domain, stores it as a plain object).
function toPortalEvent(row: { id: number; deviceId: string; data: Record<string, unknown> | RequestView; createdAt: Date }): PortalEvent {
  return { id: row.id, deviceId: row.deviceId, type: 'request.updated', data: row.data as RequestView, createdAt: row.createdAt.toISOString() };
}

/** The appended row as the driver gives it: int8 may be a string (node-postgres), timestamps are strings. */
type AppendedRow = { id: string | number; device_id: string; data: RequestView; created_at: string | Date };

/** Appends a request's current state to the event log, inside the caller's transaction. */
export async function appendRequestEvent(tx: Database, request: RequestView): Promise<PortalEvent> {
  // Lock and insert in one statement: the lock is held until commit, and every round trip to the
  // database while holding it (each one waits on this process's event loop) holds up all writers.
  // The row, and with it the id from the sequence, is only formed once the CTE has the lock.
  const [row] = await rawRows<AppendedRow>(
    tx,
    sql`WITH event_log_lock AS (SELECT pg_advisory_xact_lock(${EVENT_LOG_LOCK}))
        INSERT INTO portal_events (device_id, type, data)
        SELECT ${request.deviceId}, 'request.updated', ${JSON.stringify(request)}::jsonb FROM event_log_lock
        RETURNING id, device_id, data, created_at`,
  );
  if (!row) throw new Error('portal event not appended');
  return toPortalEvent({ id: Number(row.id), deviceId: row.device_id, data: row.data, createdAt: new Date(row.created_at) });
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
export type OutcomeApplier = (tx: Database, outcome: ReservationOutcome) => Promise<{ events: PortalEvent[]; unmatched: boolean }>;

/** Stores a verified delivery once and applies its outcome, all in one transaction. */
export function recordWebhookDelivery(db: Database, delivery: WebhookDelivery, applyOutcome: OutcomeApplier): Promise<RecordResult> {
  return db.transaction(async (tx) => {
    const o = delivery.outcome;
    const inserted = await tx
      .insert(webhookEvents)
      .values({
        webhookId: delivery.webhookId,
        eventType: delivery.eventType,
        correlationId: o?.correlationId ?? null,
        succeeded: o?.succeeded ?? null,
        errorCode: o?.errorCode ?? null,
        errorDescription: o?.errorDescription ?? null,
        payload: delivery.payload,
        eventTime: delivery.eventTime === null ? null : new Date(delivery.eventTime),
      })
      .onConflictDoNothing({ target: webhookEvents.webhookId })
      .returning({ webhookId: webhookEvents.webhookId });
    if (inserted.length === 0) return { stored: false, events: [], unmatched: false };
    if (!o) return { stored: true, events: [], unmatched: false };
    return { stored: true, ...(await applyOutcome(tx, o)) };
  });
}

/** Marks the stored outcomes of a correlation id as applied to their request. */
export async function markOutcomeApplied(tx: Database, correlationId: string): Promise<void> {
  await tx
    .update(webhookEvents)
    .set({ appliedAt: sql`now()` })
    .where(and(eq(webhookEvents.correlationId, correlationId), isNull(webhookEvents.appliedAt)));
}

/** The first stored outcome of a correlation id (a webhook can beat the 202's bookkeeping). */
export async function earlyOutcome(tx: Database, correlationId: string): Promise<ReservationOutcome | undefined> {
  const [first] = await tx
    .select({
      succeeded: webhookEvents.succeeded,
      errorCode: webhookEvents.errorCode,
      errorDescription: webhookEvents.errorDescription,
      payload: webhookEvents.payload,
    })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.correlationId, correlationId), eq(webhookEvents.eventType, 'reservationResult')))
    .orderBy(webhookEvents.receivedAt)
    .limit(1);
  if (!first) return undefined;
  const data = (first.payload as { eventData?: { data?: { reservationId?: string } } }).eventData?.data;
  return {
    correlationId,
    succeeded: first.succeeded === true,
    errorCode: first.errorCode,
    errorDescription: first.errorDescription,
    reservationId: data?.reservationId ?? null,
  };
}

/**
 * A stored success outcome that names this reservation and matched no request (its 202 was lost):
 * marked applied, and its correlation id returned so the request can learn it.
 */
export async function adoptStrayOutcome(tx: Database, reservationId: string, operation: string): Promise<string | undefined> {
  // Hand-written: a subquery on the payload's JSON paths and on requests that have no such correlation id.
  const [row] = await rawRows<{ correlation_id: string }>(
    tx,
    sql`UPDATE webhook_events SET applied_at = now()
         WHERE webhook_id = (SELECT w.webhook_id FROM webhook_events w
                              WHERE w.applied_at IS NULL AND w.event_type = 'reservationResult' AND w.succeeded
                                AND w.payload->'eventData'->'data'->>'reservationId' = ${reservationId}
                                AND coalesce(w.payload->'eventData'->'data'->>'operation', ${operation}) = ${operation}
                                AND NOT EXISTS (SELECT 1 FROM reservation_requests r WHERE r.correlation_id = w.correlation_id)
                              ORDER BY w.received_at LIMIT 1)
         RETURNING correlation_id`,
  );
  return row?.correlation_id;
}

/** Events after `afterId`, oldest first, for the given systems ('all' for admins). */
export async function loadEventsAfter(
  db: Database,
  afterId: number,
  deviceIds: readonly string[] | 'all',
  limit = 500,
): Promise<PortalEvent[]> {
  if (deviceIds !== 'all' && deviceIds.length === 0) return [];
  const rows = await db
    .select()
    .from(portalEvents)
    .where(deviceIds === 'all' ? gt(portalEvents.id, afterId) : and(gt(portalEvents.id, afterId), equalsAnyUuid(portalEvents.deviceId, deviceIds)))
    .orderBy(asc(portalEvents.id))
    .limit(limit);
  return rows.map(toPortalEvent);
}

/** latestEventId as one read of a `readTogether` (lib/db/read-together.ts). */
export function latestEventRead(): JsonRead<number> {
  const rows = selectRows(queryBuilder.select({ id: portalEvents.id }).from(portalEvents).orderBy(desc(portalEvents.id)).limit(1));
  return { query: rows.query, parse: (json) => rows.parse(json)[0]?.id ?? 0 };
}

export async function latestEventId(db: Database): Promise<number> {
  const [row] = await db.select({ id: max(portalEvents.id) }).from(portalEvents);
  return row?.id ?? 0;
}
