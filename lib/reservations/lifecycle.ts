import 'server-only';
import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql, type Column } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '@/lib/db';
import { mirrorState, reservationRequests } from '@/lib/db/schema';
import { equalsAnyUuid } from '@/lib/db/raw';
import { queryBuilder, readTogether, selectRows, type JsonRead } from '@/lib/db/read-together';
import { adoptStrayOutcome, appendRequestEvent, earlyOutcome, markOutcomeApplied, type OutcomeApplier, type ReservationOutcome } from '@/lib/events/store';
import type { MessageData, PortalEvent, RequestView } from '@/lib/events/types';
import type { BookingOrigin } from './types';
import { enqueueOutcomeMail } from '@/lib/mail/outbox';
import { applyReservationChange } from '@/lib/mirror/store';
import { markClosureDoneIfSettled } from '@/lib/closures/settled';
import { describeOutcomeError } from './reasons';

/**
 * A booking request's whole life in the database, and the only code that writes
 * `reservation_requests`: claimed ('sending') under its Idempotency-Key, then accepted (pending
 * with a correlation id), sent with an unknown outcome (pending, the answer lost), refused ("not
 * sent"), resolved by its webhook or by the reconciler, and read for views. Every change appends
 * the request's new state to the event log in the same transaction (lib/events), and a confirmed
 * outcome updates the mirror at once (lib/mirror) and writes the resident's e-mail (lib/mail).
 */

export type RequestRow = typeof reservationRequests.$inferSelect;

const requests = reservationRequests;
const DAY_MS = 86_400_000;
const iso = (v: Date | null): string | null => v?.toISOString() ?? null;

/**
 * Still open: not yet resolved. Written as the literal predicate of the partial indexes on open
 * requests (migrations 0004 and 0006), so the planner can match them whatever the plan.
 */
/** A request still waiting for the booking system's answer (sent or about to be). */
export const isOpen = (status: Column = requests.status) => sql`${status} IN ('sending', 'pending')`;

export function toRequestView(row: RequestRow): RequestView {
  const { kind, residentApartment, resourceName, errorDescription } = row;
  // An anonymised row's name is a placeholder in the portal's default language: readers word it in theirs.
  const anonymised = row.anonymisedAt !== null;
  const residentName = anonymised ? null : row.residentName;
  return {
    id: row.id,
    kind,
    status: row.status,
    deviceId: row.deviceId,
    resourceId: row.resourceId,
    residentUserId: row.residentUserId,
    reservationId: row.reservationId,
    startTime: iso(row.startTime),
    endTime: iso(row.endTime),
    requestedBy: row.requestedBy,
    errorCode: row.errorCode,
    errorDescription,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    resolvedAt: iso(row.resolvedAt),
    outcomeUnknown: row.status === 'pending' && row.outcomeUnknownSince !== null,
    requestedByName: row.requestedByName,
    residentName,
    residentApartment,
    ...(anonymised ? { residentAnonymised: true } : {}),
    resourceName,
    note: row.note,
    closureId: row.closureId,
    // A Message, not words: events carry it to readers of every language.
    reason: row.status === 'failed' ? (describeOutcomeError(row.errorCode, { kind, residentName, residentApartment, resourceName, errorDescription }) as MessageData) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Claiming

export async function findByKey(db: Database, requestedBy: string, key: string): Promise<RequestRow | undefined> {
  const [row] = await db
    .select()
    .from(requests)
    .where(and(eq(requests.requestedBy, requestedBy), eq(requests.idempotencyKey, key)));
  return row;
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
  /** The manager's note (bookings only); null without one. */
  note: string | null;
  /** The room closure that makes this cancellation (lib/closures); null or absent otherwise. */
  closureId?: string | null;
}

/** A request of the same slot (a booking) or the same reservation (a cancellation) still open. */
async function clashingOpenRequest(tx: Database, request: NewRequest): Promise<boolean> {
  const { reservationId } = request;
  let clash;
  if (request.kind === 'create') {
    clash = and(
      eq(requests.deviceId, request.deviceId),
      eq(requests.resourceId, request.resourceId),
      eq(requests.kind, 'create'),
      isOpen(),
      lt(requests.startTime, new Date(request.endTime)),
      gt(requests.endTime, new Date(request.startTime)),
    );
  } else if (reservationId !== null) {
    clash = and(eq(requests.reservationId, reservationId), eq(requests.kind, 'cancel'), isOpen());
  } else {
    return false; // a cancellation always names its reservation
  }
  const rows = await tx.select({ id: requests.id }).from(requests).where(clash).limit(1);
  return rows.length > 0;
}

/**
 * One resident's lock, held until commit: a booking or cancellation claimed for them and the
 * erasure of their personal data (lib/personal-data/erase.ts) never overlap, so an erasure cannot
 * miss a request recorded while it runs. Taken after the room's lock; erasure takes no room lock.
 */
export async function lockResident(tx: Database, deviceId: string, userId: string): Promise<void> {
  // Hand-written: an advisory lock held until commit, per resident.
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`portal-resident:${deviceId.toLowerCase()}:${userId.toLowerCase()}`}))`);
}

export type ClaimResult = { fresh: true; row: RequestRow } | { fresh: false; row: RequestRow } | { clash: true };

/**
 * Records a 'sending' request under the resource's booking lock, so two managers cannot both claim
 * a slot. A key used meanwhile (a double click racing this one) returns that request instead; an
 * open request for the same slot or reservation is a clash; `guard` may refuse by throwing.
 */
export function claimRequest(db: Database, request: NewRequest, guard?: (tx: Database) => Promise<void>): Promise<ClaimResult> {
  return db.transaction(async (tx): Promise<ClaimResult> => {
    // Hand-written: an advisory lock held until commit, per resource.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`portal-booking:${request.resourceId}`}))`);
    if (request.residentUserId) await lockResident(tx, request.deviceId, request.residentUserId);
    const again = await findByKey(tx, request.requestedBy, request.idempotencyKey);
    if (again) return { fresh: false, row: again };
    if (await clashingOpenRequest(tx, request)) return { clash: true };
    // The caller's check under the same lock (the apartment's quota); it throws to refuse.
    await guard?.(tx);
    const [row] = await tx
      .insert(requests)
      .values({
        kind: request.kind,
        deviceId: request.deviceId,
        resourceId: request.resourceId,
        residentUserId: request.residentUserId,
        reservationId: request.reservationId,
        startTime: new Date(request.startTime),
        endTime: new Date(request.endTime),
        requestedBy: request.requestedBy,
        requestedByName: request.requestedByName,
        idempotencyKey: request.idempotencyKey,
        residentName: request.residentName,
        residentApartment: request.residentApartment,
        residentGroupId: request.residentGroupId,
        resourceName: request.resourceName,
        note: request.note,
        closureId: request.closureId ?? null,
      })
      .onConflictDoNothing({ target: [requests.requestedBy, requests.idempotencyKey] })
      .returning();
    if (row) return { fresh: true, row };
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
export function markRequestAccepted(db: Database, requestId: string, correlationId: string): Promise<PortalEvent[]> {
  return db.transaction(async (tx) => {
    const [accepted] = await tx
      .update(requests)
      .set({ status: 'pending', correlationId, updatedAt: sql`now()` })
      .where(and(eq(requests.id, requestId), eq(requests.status, 'sending')))
      .returning();
    if (!accepted) return [];
    const early = await earlyOutcome(tx, correlationId);
    // Applying the outcome updates the system's mirror_state row. Webhook transactions lock that
    // row before the event-log lock; taking it first here too keeps one lock order (no deadlock).
    if (early) {
      await tx.select({ deviceId: mirrorState.deviceId }).from(mirrorState).where(eq(mirrorState.deviceId, accepted.deviceId)).for('no key update');
    }
    const events = [await appendRequestEvent(tx, toRequestView(accepted))];
    if (early) events.push(...(await applyWebhookOutcome(tx, early)).events);
    return events;
  });
}

/**
 * Sent, but the effect is unknown (timeout, broken connection, 5xx, unreadable 2xx): pending, not
 * failed, until the reconciler reads the service's truth.
 */
export function markOutcomeUnknown(db: Database, requestId: string): Promise<PortalEvent[]> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(requests)
      .set({ status: 'pending', outcomeUnknownSince: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(requests.id, requestId), eq(requests.status, 'sending')))
      .returning();
    return row ? [await appendRequestEvent(tx, toRequestView(row))] : [];
  });
}

/** Refused before or by the service: failed "not sent", and the answer kept for a repeated key. */
export function markNotSent(
  db: Database,
  requestId: string,
  answer: NonNullable<RequestRow['firstAnswer']>,
  errorCode: string,
): Promise<PortalEvent[]> {
  return db.transaction(async (tx) => {
    await tx.update(requests).set({ firstAnswer: answer }).where(eq(requests.id, requestId));
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
  tx: Database,
  target: { correlationId: string } | { requestId: string },
  outcome: Omit<ReservationOutcome, 'correlationId'>,
): Promise<PortalEvent[]> {
  // A re-sent cancellation told "not found" found its booking gone (the first send did it): done.
  const gone = !outcome.succeeded && outcome.errorCode === 'ReservationNotFound';
  const succeeded = outcome.succeeded ? sql`true` : gone ? sql`(${requests.kind} = 'cancel' AND ${requests.resends} > 0)` : sql`false`;
  const [row] = await tx
    .update(requests)
    .set({
      status: sql`CASE WHEN ${succeeded} THEN 'succeeded' ELSE 'failed' END`,
      errorCode: sql`CASE WHEN ${succeeded} THEN NULL ELSE ${outcome.errorCode} END`,
      errorDescription: sql`CASE WHEN ${succeeded} THEN NULL ELSE ${outcome.errorDescription} END`,
      reservationId: sql`COALESCE(${requests.reservationId}, ${outcome.reservationId}::uuid)`,
      resendAfter: null,
      resolvedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and('requestId' in target ? eq(requests.id, target.requestId) : eq(requests.correlationId, target.correlationId), isOpen()))
    .returning();
  if (!row) return [];
  if (row.status === 'succeeded') {
    await applyToMirror(tx, row);
    // The resident's e-mail, in this same transaction: written once the outcome is, never without it.
    await enqueueOutcomeMail(tx, row);
  }
  const events = [await appendRequestEvent(tx, toRequestView(row))];
  // A closure's last cancellation to settle marks the closure done (after the event log's lock: one lock order).
  if (row.closureId) await markClosureDoneIfSettled(tx, row.closureId);
  return events;
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
  const known = await tx.select({ id: requests.id }).from(requests).where(eq(requests.correlationId, outcome.correlationId));
  if (known.length > 0) return { events, unmatched: false };
  const waiting = await tx
    .select({ id: requests.id })
    .from(requests)
    .where(and(eq(requests.status, 'pending'), isNotNull(requests.outcomeUnknownSince)))
    .limit(1);
  return { events, unmatched: waiting.length > 0 };
};

/** A confirmed booking enters the mirror, a confirmed cancellation leaves it. */
async function applyToMirror(tx: Database, row: RequestRow): Promise<void> {
  const { deviceId, reservationId } = row;
  if (!reservationId) return;
  if (row.kind === 'cancel') {
    await applyReservationChange(tx, { type: 'cancelled', deviceId, reservationId });
    return;
  }
  const { resourceId } = row;
  const start = iso(row.startTime);
  const end = iso(row.endTime);
  if (!resourceId || !start || !end) return;
  const userId = row.residentUserId;
  const groupId = row.residentGroupId;
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
export async function claimDueRequests(db: Database, afterSeconds: number, unknownAfterSeconds: number, limit: number): Promise<RequestRow[]> {
  const due = alias(requests, 'due');
  const batch = db
    .select({ id: due.id })
    .from(due)
    .where(
      and(
        isOpen(due.status),
        or(
          lt(due.updatedAt, sql`now() - make_interval(secs => ${afterSeconds})`),
          and(isNotNull(due.outcomeUnknownSince), lt(due.updatedAt, sql`now() - make_interval(secs => ${unknownAfterSeconds})`)),
        ),
        // A re-sent cancellation is looked at again only after its backoff.
        or(isNull(due.resendAfter), lt(due.resendAfter, sql`now()`)),
      ),
    )
    .orderBy(due.updatedAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(requests)
    .set({ updatedAt: sql`now()` })
    .where(and(inArray(requests.id, batch), isOpen()))
    .returning();
}

/**
 * A cancellation re-sent by the reconciler under the same request (the same Idempotency-Key): it
 * stays pending with an unknown outcome, counts the re-send and is looked at again after
 * `resendAfter`. `correlationId` is the new send's when the service accepted it (its webhook then
 * settles the request; one that arrived before this is applied at once), null when the send's
 * answer was lost or refused for now (the next look sends again while the booking is there).
 */
export function markResent(db: Database, requestId: string, resend: { correlationId: string | null; resendAfter: Date }): Promise<PortalEvent[]> {
  return db.transaction(async (tx) => {
    const { correlationId } = resend;
    const [row] = await tx
      .update(requests)
      .set({
        status: 'pending',
        resends: sql`${requests.resends} + 1`,
        resendAfter: resend.resendAfter,
        outcomeUnknownSince: sql`COALESCE(${requests.outcomeUnknownSince}, now())`,
        ...(correlationId ? { correlationId } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(requests.id, requestId), eq(requests.kind, 'cancel'), isOpen()))
      .returning();
    if (!row || !correlationId) return [];
    const early = await earlyOutcome(tx, correlationId);
    if (!early) return [];
    // The webhook beat this bookkeeping: apply it now (mirror_state first, as webhooks lock it).
    await tx.select({ deviceId: mirrorState.deviceId }).from(mirrorState).where(eq(mirrorState.deviceId, row.deviceId)).for('no key update');
    return (await applyWebhookOutcome(tx, early)).events;
  });
}

/**
 * Settles a request from the service's truth, in one transaction. A successful one also adopts
 * the stray webhook (its 202 was lost) that names the reservation found, so that stored outcome
 * is no longer "matched to nothing" and the request learns its correlation id.
 */
export function settleFromTruth(db: Database, row: RequestRow, outcome: Omit<ReservationOutcome, 'correlationId'>): Promise<PortalEvent[]> {
  return db.transaction(async (tx) => {
    const requestId = row.id;
    const events = await resolveOpenRequest(tx, { requestId }, outcome);
    if (events.length > 0 && outcome.succeeded && outcome.reservationId) {
      const correlationId = await adoptStrayOutcome(tx, outcome.reservationId, row.kind);
      if (correlationId) {
        await tx
          .update(requests)
          .set({ correlationId })
          .where(and(eq(requests.id, requestId), isNull(requests.correlationId)));
      }
    }
    return events;
  });
}

// ---------------------------------------------------------------------------------------------
// Reading

export async function readRequest(db: Database, requestId: string): Promise<RequestView> {
  const [row] = await db.select().from(requests).where(eq(requests.id, requestId));
  if (!row) throw new Error(`booking request ${requestId} not found`);
  return toRequestView(row);
}

/** A succeeded booking: the request that made a reservation (the partial index of migration 0016). */
const isBooking = () => sql`${requests.kind} = 'create' AND ${requests.status} = 'succeeded'`;

function originOf(row: RequestRow): BookingOrigin | null {
  if (!row.reservationId) return null;
  const { reservationId, requestedByName, note } = row;
  // As toRequestView: an anonymised row gives no name, the reader's language words it.
  if (row.anonymisedAt !== null) return { reservationId, requestedByName, requestedAt: row.createdAt.toISOString(), residentName: null, residentAnonymised: true, note };
  return { reservationId, requestedByName, requestedAt: row.createdAt.toISOString(), residentName: row.residentName, note };
}

/** The newest origin of each reservation (a reservation has one booking request; be safe anyway). */
function newestOrigins(rows: readonly RequestRow[]): BookingOrigin[] {
  const byReservation = new Map<string, BookingOrigin>();
  for (const row of [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
    const origin = originOf(row);
    if (origin) byReservation.set(origin.reservationId, origin);
  }
  return [...byReservation.values()];
}

/**
 * A resource week's requests, as one read of a `readTogether` (a warm grid read makes few
 * statements): those touching [from, to) that are open (the grid shows them pending) or booked
 * (the slot dialog says who asked: the mirror knows the upstream booking, only the request who
 * asked). `weekRequestsOf` sorts them out.
 */
export function weekRequestsRead(deviceId: string, resourceId: string, from: Date, to: Date): JsonRead<RequestRow[]> {
  // A request is at most a day long (as a slot is): the lower bound keeps the index range to the week.
  const inWeek = and(
    eq(requests.deviceId, deviceId),
    eq(requests.resourceId, resourceId),
    lt(requests.startTime, to),
    gt(requests.startTime, new Date(from.getTime() - DAY_MS)),
    gt(requests.endTime, from),
  );
  return selectRows(queryBuilder.select().from(requests).where(and(inWeek, or(isOpen(), isBooking()))));
}

/** weekRequestsRead and weekRequestsOf in one call (a statement of its own). */
export async function listWeekRequests(
  db: Database,
  deviceId: string,
  resourceId: string,
  from: Date,
  to: Date,
  reservationIds: readonly string[],
): Promise<{ open: RequestView[]; origins: BookingOrigin[] }> {
  const { rows } = await readTogether(db, { rows: weekRequestsRead(deviceId, resourceId, from, to) });
  return weekRequestsOf(rows, reservationIds);
}

/** The open requests (oldest first), and who booked each of the given reservations through the portal. */
export function weekRequestsOf(rows: readonly RequestRow[], reservationIds: Iterable<string>): { open: RequestView[]; origins: BookingOrigin[] } {
  const sorted = [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const open = sorted.filter((r) => r.status === 'sending' || r.status === 'pending');
  const wanted = new Set(reservationIds);
  const origins = newestOrigins(sorted.filter((r) => r.kind === 'create' && r.status === 'succeeded' && r.reservationId !== null && wanted.has(r.reservationId)));
  return { open: open.map(toRequestView), origins };
}

/** An apartment as its requests name it: its user group, and its users (a user without a group alone). */
export interface ApartmentKeys {
  groupId: string | null;
  userIds: readonly string[];
}

/** Requests for the apartment: made for its group, or for one of its users. */
function ofApartment(apartment: ApartmentKeys) {
  const owners = [
    apartment.groupId ? eq(requests.residentGroupId, apartment.groupId) : undefined,
    apartment.userIds.length > 0 ? equalsAnyUuid(requests.residentUserId, apartment.userIds) : undefined,
  ].filter((c) => c !== undefined);
  return owners.length > 0 ? or(...owners) : undefined;
}

/**
 * The apartment's open booking requests (sending or pending) for slots not yet over: each will
 * hold one of the apartment's bookings if it succeeds, so the quota counts it.
 */
export async function listOpenApartmentBookings(db: Database, deviceId: string, apartment: ApartmentKeys, now: Date): Promise<RequestView[]> {
  const who = ofApartment(apartment);
  if (!who) return [];
  const rows = await db
    .select()
    .from(requests)
    .where(and(eq(requests.deviceId, deviceId), eq(requests.kind, 'create'), isOpen(), gt(requests.endTime, now), who))
    .orderBy(requests.startTime);
  return rows.map(toRequestView);
}

/** The portal's requests for the apartment (bookings and cancellations, any status), newest first. */
export async function listApartmentRequests(db: Database, deviceId: string, apartment: ApartmentKeys, limit: number): Promise<RequestView[]> {
  const who = ofApartment(apartment);
  if (!who) return [];
  const rows = await db
    .select()
    .from(requests)
    .where(and(eq(requests.deviceId, deviceId), who))
    .orderBy(desc(requests.createdAt), desc(requests.id))
    .limit(limit);
  return rows.map(toRequestView);
}

/** A system's open booking requests (sending or pending) overlapping [from, to), of any resource. */
export async function listOpenBookingsInWindow(db: Database, deviceId: string, from: Date, to: Date): Promise<RequestView[]> {
  const rows = await db
    .select()
    .from(requests)
    .where(and(eq(requests.deviceId, deviceId), eq(requests.kind, 'create'), isOpen(), lt(requests.startTime, to), gt(requests.endTime, from)))
    .orderBy(requests.startTime);
  return rows.map(toRequestView);
}

/** Who booked the given reservations through the portal (reservations booked elsewhere have none). */
export async function listBookingOrigins(db: Database, deviceId: string, reservationIds: readonly string[]): Promise<BookingOrigin[]> {
  if (reservationIds.length === 0) return [];
  const rows = await db
    .select()
    .from(requests)
    .where(and(eq(requests.deviceId, deviceId), isBooking(), equalsAnyUuid(requests.reservationId, reservationIds)));
  return newestOrigins(rows);
}
