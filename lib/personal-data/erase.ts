import 'server-only';
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { arrayParam, equalsAnyUuid } from '@/lib/db/raw';
import { adminAudit, calendarFeeds, mailOutbox, mirrorReleasedNoShows, portalEvents, reservationRequests, roomClosures, webhookEvents } from '@/lib/db/schema';
import { recordAudit, residentAuditTargetId, type Actor } from '@/lib/admin/audit';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { log } from '@/lib/log';
import { readUsers, readUserWithGroup } from '@/lib/mirror/store';
import {
  anonymiseMailMeta,
  anonymisePortalEvents,
  anonymiseReleasedNoShows,
  anonymiseRequests,
  anonymiseWebhookEvents,
  dropMailBodies,
  type AnonymiseStep,
  type Placeholders,
} from './anonymise';
import { gatherExtract, type PersonalDataExtract, type ResidentRef } from './extract';

// Erasure of one resident (issue 37, GDPR Art. 17; decision 036): the rows the extract finds for
// them go through the retention anonymiser's steps with a condition on the resident instead of an
// age, so an erased row looks like an expired one and reports keep counting it. What is shared
// with others is cut, not dropped: a closure keeps its reason and loses only this resident's name
// among its targets; the apartment's calendar feeds are revoked only when nobody else lives there.
// The audit keeps that it happened (who, when, the apartment's wording, counts), not the data. The
// booking system's own copy is its owner's to erase; the portal re-reads its copy afterwards.

/** Rows one statement changes at most; a resident has few, so this rarely loops. */
const ERASE_BATCH = 500;
/** A step is repeated until it changes fewer than a batch, at most this often (a broken mark cannot loop). */
const MAX_BATCHES = 200;

/** What the confirmation tells before anything changes, from the same reads the extract makes. */
export interface ErasurePlan {
  resident: PersonalDataExtract['resident'];
  requests: number;
  /** Requests still waiting for the booking system's answer: erasure waits for them. */
  waiting: number;
  emails: number;
  /** E-mails still waiting to be sent: they will not be. */
  queuedEmails: number;
  closures: number;
  noShows: number;
  auditEntries: number;
  /** The apartment's working feeds revoked (nobody else lives there). */
  feedsToRevoke: number;
  /** The apartment's working feeds kept because others live there too. */
  feedsKept: number;
  /** Other residents the booking system lists in the apartment. */
  housemates: number;
  bookingSystem: { listed: boolean; reservations: number };
}

export interface ErasureCounts {
  requests: number;
  events: number;
  deliveries: number;
  emailsStopped: number;
  emails: number;
  closures: number;
  noShows: number;
  audit: number;
  feedsRevoked: number;
}

export interface ErasureResult {
  plan: ErasurePlan;
  counts: ErasureCounts;
  /** The portal's copy of the booking system re-read after the erasure; false when that failed (the next refresh will). */
  mirrorRefreshed: boolean;
  /** The booking system still lists the resident (after the re-read): erasure there is its owner's task. */
  stillInBookingSystem: boolean;
}

export interface ErasureDeps {
  db: Database;
  placeholders: Placeholders;
  /** Re-reads the system's copy from the booking system; resolves false when it could not. */
  refreshMirror?: (deviceId: string) => Promise<boolean>;
}

/**
 * What each personal column gets from erasure, by `table.column` (lib/db/personal-data.test.ts checks
 * every marked column outside ERASURE_EXEMPT is here).
 */
export const ERASURE_COVERS: Readonly<Record<string, string>> = {
  'reservation_requests.resident_user_id': 'emptied',
  'reservation_requests.requested_by': 'as retention: kept while the manager’s account exists',
  'reservation_requests.resident_name': 'the apartment’s wording: “Resident in LGH 1001”',
  'reservation_requests.resident_apartment': 'kept: the apartment, not the person, is the unit of reports and quotas',
  'reservation_requests.resident_group_id': 'kept: the apartment’s group',
  'reservation_requests.requested_by_name': 'emptied',
  'reservation_requests.first_answer': 'emptied',
  'reservation_requests.note': 'emptied',
  'portal_events.data': 'as retention: name, user id, note and who asked removed',
  'webhook_events.payload': 'as retention: only the envelope and the outcome kept',
  'mail_outbox.recipient': 'a placeholder that is no address (an e-mail still waiting is not sent)',
  'mail_outbox.recipient_name': 'the apartment’s wording',
  'mail_outbox.facts': 'who arranged it and a closure’s reason removed',
  'mail_outbox.last_error': 'dropped',
  'mail_outbox.subject': 'dropped',
  'mail_outbox.raw': 'dropped',
  'room_closures.reason': 'kept: told to every resident the closure hit, it goes with the closure’s age (retention)',
  'room_closures.created_by_name': 'kept: the manager who closed the rooms, not the resident; goes with the closure’s age',
  'room_closures.targets': 'this resident’s targets lose the name and the refusal’s values; others’ stay',
  'mirror_released_no_shows.user_id': 'emptied',
  'mirror_released_no_shows.owner_id': 'a user becomes their apartment’s group',
  'admin_audit.actor_id': 'kept: the admin who acted, not the resident',
  'admin_audit.actor_name': 'kept: the admin who acted, not the resident',
  'admin_audit.target_id': 'kept for entries about the resident: the erasure’s own record says whose it was',
  'admin_audit.target_name': 'entries about the resident: the apartment’s wording',
  'admin_audit.detail': 'the resident’s user id replaced, e-mail addresses and names removed',
  'calendar_feeds.group_id': 'the apartment’s feeds revoked when nobody else lives there (the row stays: an apartment, not a person)',
  'calendar_feeds.token_hash': 'a revoked feed’s address opens nothing',
};

/**
 * Classes erasure leaves alone by design: the portal's own accounts (managers and admins are not
 * residents), sign-in counters (keyed by accounts' addresses, gone within the hour) and the
 * booking system's data, which the portal only copies: its owner erases it, the next refresh follows.
 */
export const ERASURE_EXEMPT = ['account-lifetime', 'throttle-window', 'mirror-service-owned'] as const;

interface Subject {
  extract: PersonalDataExtract;
  plan: ErasurePlan;
  requestIds: string[];
  webhookIds: string[];
  emailIds: string[];
  reservationIds: string[];
  closureIds: string[];
  revokeFeedIds: string[];
}

async function subjectOf(db: Database, who: ResidentRef, now: Date): Promise<Subject | null> {
  const extract = await gatherExtract(db, who, now);
  return extract ? subjectOfExtract(db, extract) : null;
}

async function subjectOfExtract(db: Database, extract: PersonalDataExtract): Promise<Subject> {
  const who: ResidentRef = { deviceId: extract.resident.deviceId, userId: extract.resident.userId };
  const groupId = extract.resident.groupId;
  const housemates = groupId ? (await readUsers(db, who.deviceId, [groupId])).filter((u) => u.id !== who.userId).length : 0;
  const working = extract.portal.calendarFeeds.filter((f) => f.works);
  const { requests, emails, closures } = extract.portal;
  const plan: ErasurePlan = {
    resident: extract.resident,
    requests: requests.length,
    waiting: requests.filter((r) => r.status === 'sending' || r.status === 'pending').length,
    emails: emails.length,
    queuedEmails: emails.filter((m) => m.status === 'queued').length,
    closures: closures.length,
    noShows: extract.portal.releasedNoShows.length,
    auditEntries: extract.portal.audit.length,
    feedsToRevoke: housemates === 0 ? working.length : 0,
    feedsKept: housemates === 0 ? 0 : working.length,
    housemates,
    bookingSystem: { listed: extract.resident.inBookingSystem, reservations: extract.bookingSystem.reservations.length },
  };
  return {
    extract,
    plan,
    requestIds: requests.map((r) => r.id),
    webhookIds: [...new Set(requests.flatMap((r) => r.outcomes.map((o) => o.webhookId)))],
    emailIds: emails.map((m) => m.id),
    reservationIds: [
      ...new Set([...requests.flatMap((r) => (r.reservationId ? [r.reservationId.toLowerCase()] : [])), ...extract.bookingSystem.reservations.map((r) => r.id), ...extract.portal.releasedNoShows.map((n) => n.id)]),
    ],
    closureIds: closures.map((c) => c.id),
    revokeFeedIds: housemates === 0 ? working.map((f) => f.id) : [],
  };
}

/**
 * The words that stand for the resident once erased: "Resident in LGH 1001" by the apartment's number
 * (as requests record it), the bare word when none is known.
 */
export function residentWording(extract: PersonalDataExtract, placeholders: Pick<Placeholders, 'residentIn' | 'resident'>): string {
  const apartment = extract.bookingSystem.apartment?.apartmentId || extract.portal.requests.findLast((r) => r.residentApartment)?.residentApartment || null;
  return apartment ? placeholders.residentIn.replace('{apartment}', apartment.trim()) : placeholders.resident;
}

/** What erasing the resident of an extract just gathered would change, for the confirmation. */
export async function planErasure(db: Database, extract: PersonalDataExtract): Promise<ErasurePlan> {
  return (await subjectOfExtract(db, extract)).plan;
}

/** Runs a step on the rows `condition` chooses until none are left. */
async function untilDone(db: Database, step: AnonymiseStep, condition: SQL | undefined, options: Parameters<AnonymiseStep>[2]): Promise<number> {
  if (condition === undefined) return 0;
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const changed = await step(db, condition, options);
    total += changed;
    if (changed < options.limit) break;
  }
  return total;
}

/** The resident's own targets in the closures that hit them lose the name and the refusal's values; other residents' targets and the reason stay. */
async function eraseClosureTargets(db: Database, deviceId: string, closureIds: readonly string[], reservationIds: readonly string[]): Promise<number> {
  if (closureIds.length === 0 || reservationIds.length === 0) return 0;
  const c = roomClosures;
  const mine = sql`lower(x.t ->> 'reservationId') = ANY(${arrayParam(reservationIds)}::text[])`;
  const rows = await db
    .update(c)
    .set({
      targets: sql`(SELECT coalesce(jsonb_agg(
          CASE WHEN NOT (${mine}) THEN x.t
               WHEN jsonb_typeof(x.t -> 'outcome') = 'object' THEN (x.t - 'residentName') || jsonb_build_object('outcome', (x.t -> 'outcome') - 'values')
               ELSE x.t - 'residentName' END
          ORDER BY x.ord), '[]'::jsonb)
        FROM jsonb_array_elements(${c.targets}) WITH ORDINALITY AS x(t, ord))`,
    })
    .where(
      and(
        eq(c.deviceId, deviceId),
        equalsAnyUuid(c.id, closureIds),
        // Only closures with something of hers left: asking again changes (and counts) nothing.
        sql`EXISTS (SELECT 1 FROM jsonb_array_elements(${c.targets}) AS x(t) WHERE (${mine}) AND (x.t ? 'residentName' OR (jsonb_typeof(x.t -> 'outcome') = 'object' AND x.t -> 'outcome' ? 'values')))`,
      ),
    )
    .returning({ id: c.id });
  return rows.length;
}

/** Audit entries about the resident: the name becomes the apartment's wording; any entry's detail loses their user id, e-mail addresses and names. */
async function eraseAuditMentions(db: Database, who: ResidentRef, wording: string, replacement: string): Promise<number> {
  const a = adminAudit;
  const about = and(eq(a.targetType, 'resident'), eq(a.targetId, residentAuditTargetId(who)));
  const mentions = sql`strpos(${a.detail}::text, ${who.userId}) > 0`;
  // The id is hexadecimal and dashes: replacing it in the JSON text keeps the JSON valid, and the
  // replacement is encoded as a JSON string's inside.
  const inside = sql`btrim(to_jsonb(${replacement}::text)::text, '"')`;
  const rows = await db
    .update(a)
    .set({
      targetName: sql`CASE WHEN ${about} THEN ${wording}::text ELSE ${a.targetName} END`,
      detail: sql`CASE WHEN ${a.detail} IS NULL THEN NULL ELSE (replace(${a.detail}::text, ${who.userId}, ${inside})::jsonb - 'email' - 'name') END`,
    })
    .where(
      sql`((${about}) AND (${a.targetName} IS DISTINCT FROM ${wording}::text OR ${a.detail} ?| array['email', 'name'])) OR (${a.detail} IS NOT NULL AND ${mentions})`,
    )
    .returning({ id: a.id });
  return rows.length;
}

/**
 * Erases what the portal holds about one resident, in one transaction with its audit entry, then
 * re-reads the system's copy from the booking system. A resident the portal knows nothing of is a
 * 404 and nothing is recorded. Doing it again changes nothing but records that it was asked.
 */
export async function eraseResident(deps: ErasureDeps, actor: Actor, who: ResidentRef, now: Date = new Date()): Promise<ErasureResult> {
  const { db, placeholders } = deps;
  const counts = await db.transaction(async (tx) => {
    const subject = await subjectOf(tx, who, now);
    if (!subject) throw new ApiError('not_found', msg('errors.personalDataNoResident'));
    // An answer still to come would write their name and address again (its e-mail, its delivery).
    if (subject.plan.waiting > 0) throw new ApiError('conflict', msg('errors.personalDataErasureWaiting', { count: subject.plan.waiting }));
    const options = { limit: ERASE_BATCH, placeholders, now };
    const r = reservationRequests;
    const e = portalEvents;
    const m = mailOutbox;
    const k = mirrorReleasedNoShows;
    const f = calendarFeeds;
    const ids = (list: readonly string[], build: (l: readonly string[]) => SQL) => (list.length ? build(list) : undefined);

    // A message still waiting would go out with the name and address: it is skipped instead.
    const stopped = subject.emailIds.length
      ? await tx
          .update(m)
          .set({ status: 'skipped', skipReason: 'erased', leaseUntil: null })
          .where(and(equalsAnyUuid(m.id, subject.emailIds), eq(m.status, 'queued')))
          .returning({ id: m.id })
      : [];
    const counts: ErasureCounts = {
      requests: await untilDone(tx, anonymiseRequests, ids(subject.requestIds, (l) => and(eq(r.deviceId, who.deviceId), equalsAnyUuid(r.id, l))!), options),
      events: await untilDone(tx, anonymisePortalEvents, and(eq(e.deviceId, who.deviceId), sql`${e.data} ->> 'residentUserId' = ${who.userId}`), options),
      deliveries: await untilDone(tx, anonymiseWebhookEvents, ids(subject.webhookIds, (l) => inArray(webhookEvents.webhookId, [...l])), options),
      emailsStopped: stopped.length,
      emails: 0,
      closures: await eraseClosureTargets(tx, who.deviceId, subject.closureIds, subject.reservationIds),
      noShows: await untilDone(tx, anonymiseReleasedNoShows, and(eq(k.deviceId, who.deviceId), eq(k.userId, who.userId)), options),
      audit: 0,
      feedsRevoked: 0,
    };
    const mails = ids(subject.emailIds, (l) => equalsAnyUuid(m.id, l));
    await untilDone(tx, dropMailBodies, mails, options);
    counts.emails = await untilDone(tx, anonymiseMailMeta, mails, options);
    const wording = residentWording(subject.extract, placeholders);
    counts.audit = await eraseAuditMentions(tx, who, wording, placeholders.recipient);
    if (subject.revokeFeedIds.length) {
      const revoked = await tx
        .update(f)
        .set({ revokedAt: now })
        .where(and(equalsAnyUuid(f.id, subject.revokeFeedIds), isNull(f.revokedAt)))
        .returning({ id: f.id });
      counts.feedsRevoked = revoked.length;
    }
    await recordAudit(tx, actor, {
      action: 'personal-data.erase',
      targetType: 'resident',
      targetId: residentAuditTargetId(who),
      targetName: wording,
      detail: { system: subject.extract.resident.systemName, counts: { ...counts }, feedsKept: subject.plan.feedsKept },
    });
    return { counts, plan: subject.plan };
  });

  let mirrorRefreshed = false;
  if (deps.refreshMirror) {
    try {
      mirrorRefreshed = await deps.refreshMirror(who.deviceId);
    } catch (error) {
      log.warn('erasure: mirror refresh failed; the next refresh follows the booking system', { deviceId: who.deviceId, error });
    }
  }
  const stillInBookingSystem = (await readUserWithGroup(db, who.deviceId, who.userId)) !== null;
  log.info('resident erased', { deviceId: who.deviceId, counts: counts.counts, mirrorRefreshed, stillInBookingSystem });
  return { plan: counts.plan, counts: counts.counts, mirrorRefreshed, stillInBookingSystem };
}
