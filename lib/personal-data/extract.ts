import 'server-only';
import { and, asc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { arrayParam, equalsAnyUuid } from '@/lib/db/raw';
import { adminAudit, calendarFeeds, mailOutbox, portalEvents, reservationRequests, roomClosures, webhookEvents } from '@/lib/db/schema';
import type { ClosureTarget, StoredFirstAnswer } from '@/lib/db/schema';
import { residentAuditTargetId } from '@/lib/admin/audit';
import { previewOf } from '@/lib/mail/view';
import { readReleasedNoShowsOfUser, readReservationsOfUser, readResources, readState, readUserWithGroup } from '@/lib/mirror/store';
import { getSystem } from '@/lib/systems/store';

// A resident's data extract (issue 37, GDPR Art. 15): everything the portal holds about one
// resident, gathered by one read per place, as plain data that both the readable document and the
// JSON download are made from (lib/personal-data/document.ts), so the two always carry the same.
// "The resident" is one user of one booking system (decision 035): records naming that user id,
// and records of their apartment that name no person (its calendar feeds, bookings the apartment's
// group holds with nobody named). A housemate's requests and e-mails are the housemate's.

/** Who an extract is about: a user of one booking system. */
export interface ResidentRef {
  deviceId: string;
  userId: string;
}

/**
 * Every marked column (lib/db/personal-data.ts) the extract reads, and where it shows. The
 * coverage test (lib/db/personal-data.test.ts) fails when a column marked personal is neither here
 * nor in a class the extract leaves out by design (EXTRACT_EXEMPT).
 */
export const EXTRACT_COVERS: Readonly<Record<string, string>> = {
  'reservation_requests.resident_user_id': 'requests: whose (the extract’s key)',
  'reservation_requests.requested_by': 'requests: requestedById',
  'reservation_requests.resident_name': 'requests: residentName',
  'reservation_requests.resident_apartment': 'requests: residentApartment',
  'reservation_requests.resident_group_id': 'requests: residentGroupId (and the apartment when the mirror has lost it)',
  'reservation_requests.requested_by_name': 'requests: requestedByName',
  'reservation_requests.first_answer': 'requests: firstAnswer',
  'reservation_requests.note': 'requests: note',
  'portal_events.data': 'requests: events (each as recorded)',
  'webhook_events.payload': 'requests: outcomes (each delivery as received)',
  'mail_outbox.recipient': 'emails: recipient',
  'mail_outbox.recipient_name': 'emails: recipientName',
  'mail_outbox.facts': 'emails: facts',
  'mail_outbox.last_error': 'emails: lastError',
  'mail_outbox.subject': 'emails: subject',
  'mail_outbox.raw': 'emails: raw (the message as sent) and text',
  'room_closures.reason': 'closures: reason',
  'room_closures.created_by_name': 'closures: createdByName',
  'room_closures.targets': 'closures: targets (only the resident’s own)',
  'calendar_feeds.group_id': 'calendarFeeds: the apartment’s feeds',
  // Read to say that a feed exists and works; the hash itself is withheld: it is a secret that
  // opens the feed, and a copy of it tells the resident nothing about themselves.
  'calendar_feeds.token_hash': 'calendarFeeds: secretAddress (whether one works; never the token or its hash)',
  'admin_audit.actor_id': 'audit: actorId',
  'admin_audit.actor_name': 'audit: actorName',
  'admin_audit.target_id': 'audit: targetId (entries about the resident)',
  'admin_audit.target_name': 'audit: targetName',
  'admin_audit.detail': 'audit: detail',
  'mirror_released_no_shows.user_id': 'releasedNoShows',
  'mirror_released_no_shows.owner_id': 'releasedNoShows (the apartment’s, nobody named)',
  'mirror_users.id': 'bookingSystem.user.id',
  'mirror_users.name': 'bookingSystem.user.name',
  'mirror_users.email': 'bookingSystem.user.email',
  'mirror_users.user_group_id': 'bookingSystem.apartment',
  'mirror_user_groups.id': 'bookingSystem.apartment.groupId',
  'mirror_user_groups.name': 'bookingSystem.apartment.name',
  'mirror_user_groups.apartment_id': 'bookingSystem.apartment.apartmentId',
  'mirror_user_groups.reference_id': 'bookingSystem.apartment.referenceId',
  'mirror_reservations.user_id': 'bookingSystem.reservations',
  'mirror_reservations.owner_id': 'bookingSystem.reservations (the apartment’s, nobody named)',
  'mirror_state.skipped_items': 'bookingSystem.unreadableItems',
};

/**
 * Retention classes the extract leaves out by design: `account-lifetime` is the portal's own
 * accounts (managers and admins, who are not residents; their ids inside a resident's records,
 * such as who asked, are in the extract through the columns above), `throttle-window` counters of
 * sign-in attempts keyed by an account's address (no resident ever signs in).
 */
export const EXTRACT_EXEMPT = ['account-lifetime', 'throttle-window'] as const;

export interface ExtractRequest {
  id: string;
  kind: 'create' | 'cancel';
  status: string;
  room: string | null;
  resourceId: string | null;
  reservationId: string | null;
  startTime: string | null;
  endTime: string | null;
  residentName: string | null;
  residentApartment: string | null;
  residentGroupId: string | null;
  requestedById: string;
  requestedByName: string | null;
  note: string | null;
  errorCode: string | null;
  errorDescription: string | null;
  firstAnswer: StoredFirstAnswer | null;
  closureId: string | null;
  createdAt: string;
  resolvedAt: string | null;
  events: { id: number; at: string; status: string | null; data: Record<string, unknown> }[];
  outcomes: { webhookId: string; eventType: string; receivedAt: string; succeeded: boolean | null; errorCode: string | null; errorDescription: string | null; payload: unknown }[];
}

export interface ExtractEmail {
  id: string;
  kind: string;
  status: string;
  skipReason: string | null;
  recipient: string | null;
  recipientName: string | null;
  subject: string | null;
  /** The text part as sent (rendered from the stored facts, as the E-mails page shows it). */
  text: string | null;
  facts: Record<string, unknown>;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  /** The whole message as sent, when kept. */
  raw: string | null;
}

export interface ExtractFeed {
  id: string;
  createdAt: string;
  rotatedAt: string | null;
  revokedAt: string | null;
  /** Whether its secret address still opens it (the token itself is never in an extract). */
  works: boolean;
}

export interface ExtractClosure {
  id: string;
  rooms: string[];
  startsAt: string;
  endsAt: string;
  reason: string;
  createdByName: string | null;
  createdAt: string;
  liftedAt: string | null;
  /** Only the resident's own bookings among those the closure cancelled. */
  targets: ClosureTarget[];
}

export interface ExtractAuditEntry {
  id: number;
  at: string;
  action: string;
  actorId: string | null;
  actorName: string;
  targetType: string;
  targetId: string | null;
  targetName: string | null;
  detail: Record<string, unknown> | null;
}

export interface ExtractBooking {
  id: string;
  room: string | null;
  resourceId: string;
  startTime: string;
  endTime: string;
  /** 'user': the resident holds it; 'apartment': their apartment's group, nobody named. */
  heldAs: 'user' | 'apartment';
  status: string;
}

export interface ExtractNoShow {
  id: string;
  room: string | null;
  resourceId: string;
  startTime: string;
  endTime: string;
  releasedAt: string;
  heldAs: 'user' | 'apartment';
}

/** Everything the portal holds about one resident. Keys are stable: the JSON download is this object. */
export interface PersonalDataExtract {
  format: 'laundry-portal/personal-data-extract';
  version: 1;
  generatedAt: string;
  resident: {
    deviceId: string;
    systemName: string;
    timeZone: string;
    userId: string;
    name: string | null;
    email: string | null;
    apartment: string | null;
    groupId: string | null;
    /** False: the booking system's user list no longer has them (known from the portal's records only). */
    inBookingSystem: boolean;
  };
  /** The portal's own records. */
  portal: {
    requests: ExtractRequest[];
    emails: ExtractEmail[];
    calendarFeeds: ExtractFeed[];
    closures: ExtractClosure[];
    audit: ExtractAuditEntry[];
    releasedNoShows: ExtractNoShow[];
  };
  /** The booking system's data as the portal mirrors it: held, corrected and erased by the booking system. */
  bookingSystem: {
    heldBy: 'booking-system';
    user: { id: string; name: string; email: string } | null;
    apartment: { groupId: string; name: string; apartmentId: string; referenceId: string } | null;
    reservations: ExtractBooking[];
    unreadableItems: { collection: string; id: string | null; reason: string }[];
  };
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The resident's requests, oldest first. */
export function readRequests(db: Database, who: ResidentRef) {
  const r = reservationRequests;
  return db
    .select()
    .from(r)
    .where(and(eq(r.deviceId, who.deviceId), eq(r.residentUserId, who.userId)))
    .orderBy(asc(r.createdAt), asc(r.id));
}

/** The event log's entries of the resident's requests. */
export function readRequestEvents(db: Database, who: ResidentRef) {
  const e = portalEvents;
  return db
    .select()
    .from(e)
    .where(and(eq(e.deviceId, who.deviceId), sql`${e.data}->>'residentUserId' = ${who.userId}`))
    .orderBy(asc(e.id));
}

/** The booking system's deliveries about the resident's requests (by their correlation ids). */
export async function readOutcomes(db: Database, correlationIds: readonly string[]) {
  const w = webhookEvents;
  if (correlationIds.length === 0) return [];
  return db.select().from(w).where(equalsAnyUuid(w.correlationId, correlationIds)).orderBy(asc(w.receivedAt), asc(w.webhookId));
}

/** E-mails about the resident's requests or bookings (a closure's e-mail has no request: its booking says whose). */
export async function readEmails(db: Database, deviceId: string, requestIds: readonly string[], reservationIds: readonly string[]) {
  const m = mailOutbox;
  const whose = [requestIds.length ? equalsAnyUuid(m.requestId, requestIds) : undefined, reservationIds.length ? equalsAnyUuid(m.reservationId, reservationIds) : undefined].filter((c) => c !== undefined);
  if (whose.length === 0) return [];
  return db
    .select()
    .from(m)
    .where(and(eq(m.deviceId, deviceId), or(...whose)))
    .orderBy(asc(m.createdAt), asc(m.id));
}

/** The apartment's calendar feeds, revoked ones too. */
export async function readApartmentFeeds(db: Database, deviceId: string, groupId: string | null) {
  const f = calendarFeeds;
  if (!groupId) return [];
  return db
    .select({ id: f.id, createdAt: f.createdAt, rotatedAt: f.rotatedAt, revokedAt: f.revokedAt, hasToken: sql<boolean>`${f.tokenHash} <> ''` })
    .from(f)
    .where(and(eq(f.deviceId, deviceId), eq(f.scope, 'apartment'), eq(f.groupId, groupId)))
    .orderBy(asc(f.createdAt), asc(f.id));
}

/** Closures that cancelled one of the resident's bookings (by their requests, or a target naming the booking). */
export async function readClosures(db: Database, deviceId: string, closureIds: readonly string[], reservationIds: readonly string[]) {
  const c = roomClosures;
  const hit = [
    closureIds.length ? equalsAnyUuid(c.id, closureIds) : undefined,
    reservationIds.length
      ? sql`EXISTS (SELECT 1 FROM jsonb_array_elements(${c.targets}) AS t WHERE lower(t->>'reservationId') = ANY(${arrayParam(reservationIds)}::text[]))`
      : undefined,
  ].filter((x) => x !== undefined);
  if (hit.length === 0) return [];
  return db
    .select()
    .from(c)
    .where(and(eq(c.deviceId, deviceId), or(...hit)))
    .orderBy(asc(c.startsAt), asc(c.id));
}

/** Audit entries about the resident (their extract's downloads, later their erasure), or whose detail names their id. */
export function readAuditEntries(db: Database, who: ResidentRef) {
  const a = adminAudit;
  return db
    .select()
    .from(a)
    .where(
      or(
        and(eq(a.targetType, 'resident'), eq(a.targetId, residentAuditTargetId(who))),
        and(isNotNull(a.detail), sql`strpos(${a.detail}::text, ${who.userId}) > 0`),
      ),
    )
    .orderBy(asc(a.createdAt), asc(a.id));
}

/**
 * Null when neither the system nor anything about the user is known. `texts: false` leaves each
 * e-mail's text unrendered (null): erasure and its plan need only which rows there are.
 */
export async function gatherExtract(db: Database, who: ResidentRef, now: Date = new Date(), { texts: withTexts = true }: { texts?: boolean } = {}): Promise<PersonalDataExtract | null> {
  const system = await getSystem(db, who.deviceId);
  if (!system) return null;
  const [mirrored, requests, events, state, resources] = await Promise.all([
    readUserWithGroup(db, who.deviceId, who.userId),
    readRequests(db, who),
    readRequestEvents(db, who),
    readState(db, who.deviceId),
    readResources(db, who.deviceId),
  ]);
  // The apartment: the booking system's, else the one their latest request recorded.
  const groupId = mirrored?.user.userGroupId ?? requests.findLast((r) => r.residentGroupId)?.residentGroupId ?? null;
  const [reservations, noShows] = await Promise.all([
    readReservationsOfUser(db, who.deviceId, who.userId, groupId),
    readReleasedNoShowsOfUser(db, who.deviceId, who.userId, groupId),
  ]);
  const nothingKnown = !mirrored && requests.length === 0 && events.length === 0 && reservations.length === 0 && noShows.length === 0;
  const requestIds = requests.map((r) => r.id);
  const reservationIds = [...new Set([...requests.flatMap((r) => (r.reservationId ? [r.reservationId] : [])), ...reservations.map((r) => r.id), ...noShows.map((n) => n.id)])];
  const closureIds = [...new Set(requests.flatMap((r) => (r.closureId ? [r.closureId] : [])))];
  const [outcomes, emails, feeds, closures, audit] = await Promise.all([
    readOutcomes(db, requests.flatMap((r) => (r.correlationId ? [r.correlationId] : []))),
    readEmails(db, who.deviceId, requestIds, reservationIds),
    readApartmentFeeds(db, who.deviceId, groupId),
    readClosures(db, who.deviceId, closureIds, reservationIds),
    readAuditEntries(db, who),
  ]);
  if (nothingKnown && emails.length === 0 && audit.length === 0) return null;

  const roomName = new Map(resources.map((r) => [r.id, r.name]));
  const room = (id: string | null) => (id ? (roomName.get(id) ?? null) : null);
  const latest = requests.at(-1);
  const mine = new Set(reservationIds);
  const texts = withTexts ? await Promise.all(emails.map(async (m) => (m.status === 'skipped' ? null : (await previewOf(m)).text))) : [];

  return {
    format: 'laundry-portal/personal-data-extract',
    version: 1,
    generatedAt: now.toISOString(),
    resident: {
      deviceId: who.deviceId,
      systemName: system.name,
      timeZone: system.timeZone,
      userId: who.userId,
      name: mirrored?.user.name || latest?.residentName || null,
      email: mirrored?.user.email || null,
      apartment: mirrored?.group?.name || latest?.residentApartment || null,
      groupId,
      inBookingSystem: mirrored !== null,
    },
    portal: {
      requests: requests.map((r) => ({
        id: r.id,
        kind: r.kind,
        status: r.status,
        room: r.resourceName ?? room(r.resourceId),
        resourceId: r.resourceId,
        reservationId: r.reservationId,
        startTime: iso(r.startTime),
        endTime: iso(r.endTime),
        residentName: r.residentName,
        residentApartment: r.residentApartment,
        residentGroupId: r.residentGroupId,
        requestedById: r.requestedBy,
        requestedByName: r.requestedByName,
        note: r.note,
        errorCode: r.errorCode,
        errorDescription: r.errorDescription,
        firstAnswer: r.firstAnswer,
        closureId: r.closureId,
        createdAt: r.createdAt.toISOString(),
        resolvedAt: iso(r.resolvedAt),
        events: events
          .filter((e) => e.data.id === r.id)
          .map((e) => ({ id: e.id, at: e.createdAt.toISOString(), status: typeof e.data.status === 'string' ? e.data.status : null, data: e.data })),
        outcomes: outcomes
          .filter((o) => o.correlationId !== null && o.correlationId === r.correlationId)
          .map((o) => ({
            webhookId: o.webhookId,
            eventType: o.eventType,
            receivedAt: o.receivedAt.toISOString(),
            succeeded: o.succeeded,
            errorCode: o.errorCode,
            errorDescription: o.errorDescription,
            payload: o.payload,
          })),
      })),
      emails: emails.map((m, i) => ({
        id: m.id,
        kind: m.kind,
        status: m.status,
        skipReason: m.skipReason,
        recipient: m.recipient,
        recipientName: m.recipientName,
        subject: m.subject,
        text: texts[i] ?? null,
        facts: { ...m.facts },
        lastError: m.lastError,
        createdAt: m.createdAt.toISOString(),
        sentAt: iso(m.sentAt),
        raw: m.raw,
      })),
      calendarFeeds: feeds.map((f) => ({ id: f.id, createdAt: f.createdAt.toISOString(), rotatedAt: iso(f.rotatedAt), revokedAt: iso(f.revokedAt), works: f.revokedAt === null && f.hasToken })),
      closures: closures.map((c) => ({
        id: c.id,
        rooms: c.resourceIds.map((id) => room(id) ?? id),
        startsAt: c.startsAt.toISOString(),
        endsAt: c.endsAt.toISOString(),
        reason: c.reason,
        createdByName: c.createdByName,
        createdAt: c.createdAt.toISOString(),
        liftedAt: iso(c.liftedAt),
        // Ids in the JSON are as the preview had them; the mirror's uuids are lower case.
        targets: c.targets.filter((t) => mine.has(t.reservationId.toLowerCase())),
      })),
      audit: audit.map((a) => ({
        id: a.id,
        at: a.createdAt.toISOString(),
        action: a.action,
        actorId: a.actorId,
        actorName: a.actorName,
        targetType: a.targetType,
        targetId: a.targetId,
        targetName: a.targetName,
        detail: a.detail,
      })),
      releasedNoShows: noShows.map((n) => ({
        id: n.id,
        room: room(n.resourceId),
        resourceId: n.resourceId,
        startTime: new Date(n.startMs).toISOString(),
        endTime: new Date(n.endMs).toISOString(),
        releasedAt: new Date(n.releasedAtMs).toISOString(),
        heldAs: n.userId === who.userId ? ('user' as const) : ('apartment' as const),
      })),
    },
    bookingSystem: {
      heldBy: 'booking-system',
      user: mirrored ? { id: mirrored.user.id, name: mirrored.user.name, email: mirrored.user.email } : null,
      apartment: mirrored?.group ? { groupId: mirrored.group.id, name: mirrored.group.name, apartmentId: mirrored.group.apartmentId, referenceId: mirrored.group.referenceId } : null,
      reservations: reservations.map((r) => ({
        id: r.id,
        room: room(r.resourceId),
        resourceId: r.resourceId,
        startTime: r.startTime,
        endTime: r.endTime,
        heldAs: r.userId === who.userId ? ('user' as const) : ('apartment' as const),
        status: r.status,
      })),
      unreadableItems: (state?.skipped?.samples ?? []).filter((s) => s.id !== null && (s.id === who.userId || s.id === groupId)),
    },
  };
}
