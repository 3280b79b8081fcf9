import 'server-only';
import type { SqlRunner } from '@/shared/sql-runner';
import { adoptStrayOutcome, appendRequestEvent, earlyOutcome, markOutcomeApplied, type OutcomeApplier, type ReservationOutcome } from '@/lib/events/store';
import type { PortalEvent, RequestView } from '@/lib/events/types';
import { applyReservationChange } from '@/lib/mirror/store';
import { describeOutcomeError } from './reasons';

/**
 * A booking request's whole life in the database, and the only code that writes
 * `reservation_requests`: claimed ('sending') under its Idempotency-Key, then accepted (pending
 * with a correlation id), sent with an unknown outcome (pending, the answer lost), refused ("not
 * sent"), resolved by its webhook or by the reconciler, and read for views. Every change appends
 * the request's new state to the event log in the same transaction (lib/events), and a confirmed
 * outcome updates the mirror at once (lib/mirror).
 */

export type RequestRow = Record<string, unknown>;

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string | Date).toISOString());

export function toRequestView(row: RequestRow): RequestView {
  const kind = row.kind as RequestView['kind'];
  const residentName = (row.resident_name as string | null | undefined) ?? null;
  const residentApartment = (row.resident_apartment as string | null | undefined) ?? null;
  const resourceName = (row.resource_name as string | null | undefined) ?? null;
  const errorDescription = (row.error_description as string | null) ?? null;
  return {
    id: row.id as string,
    kind,
    status: row.status as RequestView['status'],
    deviceId: row.device_id as string,
    resourceId: (row.resource_id as string | null) ?? null,
    residentUserId: (row.resident_user_id as string | null) ?? null,
    reservationId: (row.reservation_id as string | null) ?? null,
    startTime: iso(row.start_time),
    endTime: iso(row.end_time),
    requestedBy: row.requested_by as string,
    errorCode: (row.error_code as string | null) ?? null,
    errorDescription,
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

// ---------------------------------------------------------------------------------------------
// Claiming

export async function findByKey(sql: SqlRunner, requestedBy: string, key: string): Promise<RequestRow | undefined> {
  const { rows } = await sql.query('SELECT * FROM reservation_requests WHERE requested_by = $1 AND idempotency_key = $2', [requestedBy, key]);
  return rows[0];
}

/** What a new request records: who asks, for whom, what, and the names to show with it. */
export interface NewRequest {
  kind: 'create' | 'cancel';
  deviceId: string;
  resourceId: string;
  residentUserId: string | null;
  reservationId: string | null;
  startTime: string;
  endTime: string;
  requestedBy: string;
  requestedByName: string;
  idempotencyKey: string;
  residentName: string | null;
  residentApartment: string | null;
  residentGroupId: string | null;
  resourceName: string | null;
}

/** A request of the same slot (a booking) or the same reservation (a cancellation) still open. */
async function clashingOpenRequest(tx: SqlRunner, request: NewRequest): Promise<boolean> {
  const { rows } =
    request.kind === 'create'
      ? await tx.query(
          `SELECT 1 FROM reservation_requests WHERE device_id = $1 AND resource_id = $2 AND kind = 'create'
              AND status IN ('sending', 'pending') AND start_time < $4 AND end_time > $3 LIMIT 1`,
          [request.deviceId, request.resourceId, request.startTime, request.endTime],
        )
      : await tx.query(`SELECT 1 FROM reservation_requests WHERE reservation_id = $1 AND kind = 'cancel' AND status IN ('sending', 'pending') LIMIT 1`, [
          request.reservationId,
        ]);
  return rows.length > 0;
}

export type ClaimResult = { fresh: true; row: RequestRow } | { fresh: false; row: RequestRow } | { clash: true };

/**
 * Records a 'sending' request under the resource's booking lock, so two managers cannot both claim
 * a slot. A key used meanwhile (a double click racing this one) returns that request instead; an
 * open request for the same slot or reservation is a clash.
 */
export function claimRequest(sql: SqlRunner, request: NewRequest): Promise<ClaimResult> {
  return sql.transaction(async (tx): Promise<ClaimResult> => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`portal-booking:${request.resourceId}`]);
    const again = await findByKey(tx, request.requestedBy, request.idempotencyKey);
    if (again) return { fresh: false, row: again };
    if (await clashingOpenRequest(tx, request)) return { clash: true };
    const { rows } = await tx.query(
      `INSERT INTO reservation_requests
         (kind, device_id, resource_id, resident_user_id, reservation_id, start_time, end_time, requested_by, requested_by_name,
          idempotency_key, resident_name, resident_apartment, resident_group_id, resource_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (requested_by, idempotency_key) DO NOTHING
       RETURNING *`,
      [
        request.kind, request.deviceId, request.resourceId, request.residentUserId, request.reservationId, request.startTime, request.endTime,
        request.requestedBy, request.requestedByName, request.idempotencyKey, request.residentName, request.residentApartment,
        request.residentGroupId, request.resourceName,
      ],
    );
    if (rows[0]) return { fresh: true, row: rows[0] };
    const raced = await findByKey(tx, request.requestedBy, request.idempotencyKey);
    if (!raced) throw new Error('idempotency row vanished');
    return { fresh: false, row: raced };
  });
}

// ---------------------------------------------------------------------------------------------
// After the send

/**
 * Accepted upstream: pending with its correlation id. An outcome that arrived before this (the
 * webhook can beat the 202's bookkeeping) is applied at once.
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
    const early = await earlyOutcome(tx, correlationId);
    // Applying the outcome updates the system's mirror_state row. Webhook transactions lock that
    // row before the event-log lock; taking it first here too keeps one lock order (no deadlock).
    if (early) await tx.query('SELECT 1 FROM mirror_state WHERE device_id = $1 FOR NO KEY UPDATE', [accepted.device_id]);
    const events = [await appendRequestEvent(tx, toRequestView(accepted))];
    if (early) events.push(...(await applyWebhookOutcome(tx, early)).events);
    return events;
  });
}

/**
 * Sent, but the effect is unknown (timeout, broken connection, 5xx, unreadable 2xx): pending, not
 * failed, until the reconciler reads the service's truth.
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

/** Refused before or by the service: failed "not sent", and the answer kept for a repeated key. */
export function markNotSent(
  sql: SqlRunner,
  requestId: string,
  answer: { status: number; code: string; message: string },
  errorCode: string,
): Promise<PortalEvent[]> {
  return sql.transaction(async (tx) => {
    await tx.query('UPDATE reservation_requests SET first_answer = $2::jsonb WHERE id = $1', [requestId, JSON.stringify(answer)]);
    return resolveOpenRequest(tx, { requestId }, { succeeded: false, errorCode, errorDescription: answer.message, reservationId: null });
  });
}

// ---------------------------------------------------------------------------------------------
// Outcomes

/**
 * Resolves one open request (by correlation id or by request id), inside the caller's
 * transaction: sets its final status, applies a successful outcome to the mirror (so the grid
 * shows it at once) and appends the event. Returns [] when the request was not open, so
 * duplicates and late deliveries change nothing.
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

/**
 * A webhook's outcome, inside its transaction: resolves the request with its correlation id. An
 * outcome that matches no request while one waits with an unknown outcome is `unmatched`: its
 * 202 was lost, and the reconciler matches it from the service's reservations.
 */
export const applyWebhookOutcome: OutcomeApplier = async (tx, outcome) => {
  const events = await resolveOpenRequest(tx, { correlationId: outcome.correlationId }, outcome);
  if (events.length > 0) {
    await markOutcomeApplied(tx, outcome.correlationId);
    return { events, unmatched: false };
  }
  const known = await tx.query('SELECT 1 FROM reservation_requests WHERE correlation_id = $1', [outcome.correlationId]);
  if (known.rows.length > 0) return { events, unmatched: false };
  const waiting = await tx.query("SELECT 1 FROM reservation_requests WHERE status = 'pending' AND outcome_unknown_since IS NOT NULL LIMIT 1");
  return { events, unmatched: waiting.rows.length > 0 };
};

/** A confirmed booking enters the mirror, a confirmed cancellation leaves it. */
async function applyToMirror(tx: SqlRunner, row: RequestRow): Promise<void> {
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

// ---------------------------------------------------------------------------------------------
// Reconciling

/**
 * Claims open requests due for a look: those whose answer was lost after `unknownAfterSeconds`,
 * the others (accepted and waiting for their webhook, or 'sending' in a process that died
 * mid-call) after `afterSeconds`. The claim bumps updated_at inside one statement with SKIP
 * LOCKED, so across instances each request is checked by one of them, and one that could not be
 * checked now (service down) is tried again a period later.
 */
export async function claimDueRequests(sql: SqlRunner, afterSeconds: number, unknownAfterSeconds: number, limit: number): Promise<RequestRow[]> {
  const { rows } = await sql.query(
    `UPDATE reservation_requests SET updated_at = now()
      WHERE id IN (SELECT id FROM reservation_requests
                    WHERE status IN ('sending', 'pending')
                      AND (updated_at < now() - make_interval(secs => $1)
                           OR (outcome_unknown_since IS NOT NULL AND updated_at < now() - make_interval(secs => $2)))
                    ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        AND status IN ('sending', 'pending')
      RETURNING *`,
    [afterSeconds, unknownAfterSeconds, limit],
  );
  return rows;
}

/**
 * Settles a request from the service's truth, in one transaction. A successful one also adopts
 * the stray webhook (its 202 was lost) that names the reservation found, so that stored outcome
 * is no longer "matched to nothing" and the request learns its correlation id.
 */
export function settleFromTruth(
  sql: SqlRunner,
  row: RequestRow,
  outcome: Omit<ReservationOutcome, 'correlationId'>,
): Promise<PortalEvent[]> {
  return sql.transaction(async (tx) => {
    const requestId = row.id as string;
    const events = await resolveOpenRequest(tx, { requestId }, outcome);
    if (events.length > 0 && outcome.succeeded && outcome.reservationId) {
      const correlationId = await adoptStrayOutcome(tx, outcome.reservationId, row.kind as string);
      if (correlationId) {
        await tx.query('UPDATE reservation_requests SET correlation_id = $2 WHERE id = $1 AND correlation_id IS NULL', [requestId, correlationId]);
      }
    }
    return events;
  });
}

// ---------------------------------------------------------------------------------------------
// Reading

export async function readRequest(sql: SqlRunner, requestId: string): Promise<RequestView> {
  const { rows } = await sql.query('SELECT * FROM reservation_requests WHERE id = $1', [requestId]);
  return toRequestView(rows[0] ?? {});
}

/** Recent requests of the given systems ('all' for admins), newest first. */
export async function listRequests(sql: SqlRunner, deviceIds: readonly string[] | 'all', limit: number): Promise<RequestView[]> {
  if (deviceIds !== 'all' && deviceIds.length === 0) return [];
  const { rows } =
    deviceIds === 'all'
      ? await sql.query('SELECT * FROM reservation_requests ORDER BY created_at DESC, id LIMIT $1', [limit])
      : await sql.query('SELECT * FROM reservation_requests WHERE device_id = ANY($1::uuid[]) ORDER BY created_at DESC, id LIMIT $2', [deviceIds, limit]);
  return rows.map(toRequestView);
}

/** Open requests touching [from, to) of one resource: the grid shows them as pending. */
export async function listOpenRequests(sql: SqlRunner, deviceId: string, resourceId: string, from: Date, to: Date): Promise<RequestView[]> {
  const { rows } = await sql.query(
    `SELECT * FROM reservation_requests WHERE device_id = $1 AND resource_id = $2 AND status IN ('sending', 'pending')
        AND start_time < $4 AND end_time > $3 ORDER BY created_at`,
    [deviceId, resourceId, from.toISOString(), to.toISOString()],
  );
  return rows.map(toRequestView);
}
