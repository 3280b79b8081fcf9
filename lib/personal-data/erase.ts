import 'server-only';
import { and, count, eq, gt, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { arrayParam, equalsAnyUuid } from '@/lib/db/raw';
import { adminAudit, calendarFeeds, mailOutbox, mirrorReleasedNoShows, portalEvents, reservationRequests, roomClosures, webhookEvents } from '@/lib/db/schema';
import { recordAudit, residentAuditTargetId, type Actor } from '@/lib/admin/audit';
import { confirmationMatches } from '@/lib/client/typed-confirmation';
import { ApiError } from '@/lib/errors/api-error';
import { apartmentNumber } from '@/lib/i18n/format';
import { msg, type Message } from '@/lib/i18n/message';
import { log } from '@/lib/log';
import { readState, readUsers, readUserWithGroup } from '@/lib/mirror/store';
import { isOpen, lockResident } from '@/lib/reservations/lifecycle';
import {
  anonymiseMailMeta,
  anonymisePortalEvents,
  anonymiseReleasedNoShows,
  anonymiseRequests,
  anonymiseWebhookEvents,
  dropMailBodies,
  repeatStep,
  type AnonymiseOptions,
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
  /** E-mails the mail worker is sending at this moment: erasure waits for them. */
  sendingEmails: number;
  closures: number;
  /** Room closures still cancelling one of their bookings: erasure waits for them. */
  closuresCancelling: number;
  noShows: number;
  auditEntries: number;
  /** The apartment's working feeds revoked (the booking system lists nobody else there). */
  feedsToRevoke: number;
  /** The apartment's working feeds kept: others live there too, or who lives there is not known. */
  feedsKept: number;
  /** Other residents the booking system lists in the apartment; null when the portal has no user list to tell (then the feeds stay). */
  housemates: number | null;
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

/** The re-read of the system's copy after an erasure: done, already running (it follows the booking system when it ends), or failed (the next refresh will). */
export type MirrorRefreshOutcome = 'refreshed' | 'busy' | 'failed';

export interface ErasureResult {
  plan: ErasurePlan;
  counts: ErasureCounts;
  /** Records changed, as the success line and the audit entry say it: erasedRecords(counts). */
  records: number;
  mirror: MirrorRefreshOutcome;
  /** The booking system still lists the resident (after the re-read): erasure there is its owner's task. */
  stillInBookingSystem: boolean;
}

export interface ErasureDeps {
  db: Database;
  placeholders: Placeholders;
  /** Re-reads the system's copy from the booking system. */
  refreshMirror?: (deviceId: string) => Promise<Exclude<MirrorRefreshOutcome, 'failed'>>;
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
  const extract = await gatherExtract(db, who, now, { texts: false });
  return extract ? subjectOfExtract(db, extract, now) : null;
}

/** Their e-mails the mail worker holds at `now` (queued, with a live lease): being sent. */
async function countSending(db: Database, emailIds: readonly string[], now: Date): Promise<number> {
  if (emailIds.length === 0) return 0;
  const m = mailOutbox;
  const [row] = await db
    .select({ n: count() })
    .from(m)
    .where(and(equalsAnyUuid(m.id, emailIds), eq(m.status, 'queued'), gt(m.leaseUntil, now)));
  return row?.n ?? 0;
}

/** Closures of the system still cancelling one of these bookings (their cancel requests would name the resident). */
async function countCancelling(db: Database, deviceId: string, reservationIds: readonly string[]): Promise<number> {
  if (reservationIds.length === 0) return 0;
  const c = roomClosures;
  const [row] = await db
    .select({ n: count() })
    .from(c)
    .where(
      and(
        eq(c.deviceId, deviceId),
        eq(c.status, 'cancelling'),
        sql`EXISTS (SELECT 1 FROM jsonb_array_elements(${c.targets}) AS x(t) WHERE lower(x.t ->> 'reservationId') = ANY(${arrayParam(reservationIds)}::text[]))`,
      ),
    );
  return row?.n ?? 0;
}

/** Their requests still waiting for the booking system's answer, as recorded now (anonymised ones never wait). */
async function countWaiting(db: Database, who: ResidentRef): Promise<number> {
  const r = reservationRequests;
  const [row] = await db
    .select({ n: count() })
    .from(r)
    .where(and(eq(r.deviceId, who.deviceId), eq(r.residentUserId, who.userId), isOpen()));
  return row?.n ?? 0;
}

async function subjectOfExtract(db: Database, extract: PersonalDataExtract, now: Date): Promise<Subject> {
  const who: ResidentRef = { deviceId: extract.resident.deviceId, userId: extract.resident.userId };
  const groupId = extract.resident.groupId;
  const { requests, emails, closures } = extract.portal;
  const emailIds = emails.map((m) => m.id);
  const reservationIds = [
    ...new Set([...requests.flatMap((r) => (r.reservationId ? [r.reservationId.toLowerCase()] : [])), ...extract.bookingSystem.reservations.map((r) => r.id), ...extract.portal.releasedNoShows.map((n) => n.id)]),
  ];
  const [state, sendingEmails, closuresCancelling] = await Promise.all([readState(db, who.deviceId), countSending(db, emailIds, now), countCancelling(db, who.deviceId, reservationIds)]);
  // Housemates are counted from the copy of the booking system's user list, so only a list that was
  // read (or kept from an earlier read) can say nobody else lives there; without one, the feeds stay.
  const listKnown = state?.usersStatus === 'loaded' || state?.usersStatus === 'kept';
  const housemates = !groupId ? 0 : listKnown ? (await readUsers(db, who.deviceId, [groupId])).filter((u) => u.id !== who.userId).length : null;
  const working = extract.portal.calendarFeeds.filter((f) => f.works);
  const revoke = housemates === 0;
  const plan: ErasurePlan = {
    resident: extract.resident,
    requests: requests.length,
    waiting: requests.filter((r) => r.status === 'sending' || r.status === 'pending').length,
    emails: emails.length,
    queuedEmails: emails.filter((m) => m.status === 'queued').length,
    sendingEmails,
    closures: closures.length,
    closuresCancelling,
    noShows: extract.portal.releasedNoShows.length,
    auditEntries: extract.portal.audit.length,
    feedsToRevoke: revoke ? working.length : 0,
    feedsKept: revoke ? 0 : working.length,
    housemates,
    bookingSystem: { listed: extract.resident.inBookingSystem, reservations: extract.bookingSystem.reservations.length },
  };
  return {
    extract,
    plan,
    requestIds: requests.map((r) => r.id),
    webhookIds: [...new Set(requests.flatMap((r) => r.outcomes.map((o) => o.webhookId)))],
    emailIds,
    reservationIds,
    closureIds: closures.map((c) => c.id),
    revokeFeedIds: revoke ? working.map((f) => f.id) : [],
  };
}

/**
 * Why erasure must wait, as a sentence, or null when it can go ahead: something still in flight
 * would write their name or address again (an answer from the booking system, a closure's
 * cancellations) or send it (an e-mail the worker holds).
 */
export function erasureBlockedBy(plan: Pick<ErasurePlan, 'waiting' | 'sendingEmails' | 'closuresCancelling'>): Message | null {
  if (plan.waiting > 0) return msg('errors.personalDataErasureWaiting', { count: plan.waiting });
  if (plan.closuresCancelling > 0) return msg('errors.personalDataErasureClosing', { count: plan.closuresCancelling });
  if (plan.sendingEmails > 0) return msg('errors.personalDataErasureSending', { count: plan.sendingEmails });
  return null;
}

/** Records an erasure changed, as its success line and its audit entry say it (a stopped e-mail is among `emails`; feeds are said apart). */
export function erasedRecords(counts: ErasureCounts): number {
  return counts.requests + counts.events + counts.deliveries + counts.emails + counts.closures + counts.noShows + counts.audit;
}

/** How the portal's pages name a resident: their name, else their apartment, else their user id. */
export function residentLabel(resident: { name: string | null; apartment: string | null; userId: string }): string {
  return resident.name || resident.apartment || resident.userId;
}

/**
 * The words that stand for the resident once erased: "Resident in LGH 1001" by the apartment's number
 * (as requests record it), the bare word when none is known.
 */
export function residentWording(extract: PersonalDataExtract, placeholders: Pick<Placeholders, 'residentIn' | 'resident'>): string {
  const apartment = erasedApartment(extract);
  return apartment ? placeholders.residentIn.replace('{apartment}', apartment) : placeholders.resident;
}

/**
 * The apartment's number that stands for the resident once erased, as the SQL of anonymise.ts
 * writes it (its own leading "LGH" dropped, issue 47), or null when none is known. Kept as a fact in
 * the audit entries about them (`erased`), which the log words in each reader's language.
 */
export function erasedApartment(extract: PersonalDataExtract): string | null {
  const apartment = extract.bookingSystem.apartment?.apartmentId || extract.portal.requests.findLast((r) => r.residentApartment)?.residentApartment || null;
  return apartment ? apartmentNumber(apartment) : null;
}

/**
 * What the admin types to confirm an erasure (issue 48): the resident's name or e-mail address, so
 * a press on the wrong one of an apartment's residents erases nobody; their user id when the portal
 * knows neither.
 */
export function erasureConfirmationWords(resident: Pick<ErasurePlan['resident'], 'name' | 'email' | 'userId'>): string[] {
  const words = [resident.name, resident.email].filter((w): w is string => Boolean(w?.trim()));
  return words.length > 0 ? words : [resident.userId];
}

/** What erasing the resident of an extract just gathered would change, for the confirmation. */
export async function planErasure(db: Database, extract: PersonalDataExtract, now: Date = new Date()): Promise<ErasurePlan> {
  return (await subjectOfExtract(db, extract, now)).plan;
}

/** Runs a step on the resident's rows `condition` chooses until none are left (no condition: none). */
async function untilDone(db: Database, step: AnonymiseStep, condition: SQL | undefined, options: AnonymiseOptions): Promise<number> {
  if (condition === undefined) return 0;
  const done = await repeatStep(db, step, condition, options, { maxBatches: MAX_BATCHES });
  // A resident's rows are few; a step still unfinished after MAX_BATCHES is a broken mark, and an
  // erasure that says it is done must be.
  if (!done.complete) throw new Error(`erasure: a step did not finish in ${MAX_BATCHES} batches`);
  return done.changed;
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

/** Keys that carry a person's name or address in an audit entry's detail. */
const PERSONAL_DETAIL_KEYS = new Set(['email', 'name', 'residentName', 'residentEmail', 'recipient', 'recipientName']);

/**
 * One audit detail with the resident taken out, at any depth: their user id becomes `replacement`,
 * and name and address keys go from the entry when it is about them, else from the objects in it
 * that name their id (a housemate or an admin named elsewhere in the entry stays).
 */
export function eraseFromDetail(value: unknown, userId: string, replacement: string, about: boolean): unknown {
  const id = userId.toLowerCase();
  const pattern = new RegExp(id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  const names = (v: unknown): boolean => typeof v === 'string' && v.toLowerCase().includes(id);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return names(v) ? v.replace(pattern, () => replacement) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const entries = Object.entries(v as Record<string, unknown>);
    const theirs = about || entries.some(([, x]) => names(x));
    return Object.fromEntries(entries.filter(([k]) => !(theirs && PERSONAL_DETAIL_KEYS.has(k))).map(([k, x]) => [k, walk(x)]));
  };
  return walk(value);
}

/** Audit entries about the resident: the name becomes the apartment's wording; any entry's detail loses their user id, and their name and address. */
async function eraseAuditMentions(db: Database, who: ResidentRef, wording: string, replacement: string, erased: { apartment: string | null }): Promise<number> {
  const a = adminAudit;
  const about = and(eq(a.targetType, 'resident'), eq(a.targetId, residentAuditTargetId(who)));
  const rows = await db
    .select({ id: a.id, targetType: a.targetType, targetId: a.targetId, targetName: a.targetName, detail: a.detail })
    .from(a)
    .where(or(about, sql`${a.detail} IS NOT NULL AND strpos(lower(${a.detail}::text), ${who.userId.toLowerCase()}) > 0`))
    .for('update');
  let changed = 0;
  for (const row of rows) {
    const isAbout = row.targetType === 'resident' && row.targetId === residentAuditTargetId(who);
    const targetName = isAbout ? wording : row.targetName;
    const kept = row.detail === null ? null : (eraseFromDetail(row.detail, who.userId, replacement, isAbout) as typeof row.detail);
    // The name is the wording in the portal's default language; the fact beside it lets the log say it in the reader's.
    const detail = isAbout ? { ...(kept ?? {}), erased } : kept;
    if (targetName === row.targetName && JSON.stringify(detail) === JSON.stringify(row.detail)) continue;
    await db.update(a).set({ targetName, detail }).where(eq(a.id, row.id));
    changed += 1;
  }
  return changed;
}

/**
 * Erases what the portal holds about one resident, in one transaction with its audit entry, then
 * re-reads the system's copy from the booking system. A resident the portal knows nothing of is a
 * 404 and nothing is recorded. Doing it again changes nothing but records that it was asked.
 * `asked.confirmation`, when given, must be the resident's name or e-mail (erasureConfirmationWords):
 * else a 400 and nothing changes.
 */
export async function eraseResident(deps: ErasureDeps, actor: Actor, who: ResidentRef, now: Date = new Date(), asked: { confirmation?: string } = {}): Promise<ErasureResult> {
  const { db, placeholders } = deps;
  const done = await db.transaction(async (tx) => {
    // No booking or cancellation is claimed for them while this runs (claimRequest takes the same lock).
    await lockResident(tx, who.deviceId, who.userId);
    const subject = await subjectOf(tx, who, now);
    if (!subject) throw new ApiError('not_found', msg('errors.personalDataNoResident'));
    // Checked against the records as read now, not the page: the typed words must be this resident's.
    if (asked.confirmation !== undefined && !confirmationMatches(asked.confirmation, erasureConfirmationWords(subject.extract.resident))) {
      throw new ApiError('bad_request', msg('errors.personalDataErasureNotConfirmed'));
    }
    const blocked = erasureBlockedBy(subject.plan);
    if (blocked) throw new ApiError('conflict', blocked);
    // Every row of theirs, so a row another transaction holds is waited for, not skipped.
    const options: AnonymiseOptions = { limit: ERASE_BATCH, placeholders, now, skipLocked: false, ownerGroupId: subject.extract.resident.groupId };
    const r = reservationRequests;
    const e = portalEvents;
    const m = mailOutbox;
    const k = mirrorReleasedNoShows;
    const f = calendarFeeds;
    const ids = (list: readonly string[], build: (l: readonly string[]) => SQL) => (list.length ? build(list) : undefined);

    // A message still waiting would go out with the name and address: it is skipped instead. One
    // the worker claimed since the plan was read is being sent: the erasure waits for it (409).
    let stopped: { id: string }[] = [];
    if (subject.emailIds.length) {
      stopped = await tx
        .update(m)
        .set({ status: 'skipped', skipReason: 'erased', leaseUntil: null })
        .where(and(equalsAnyUuid(m.id, subject.emailIds), eq(m.status, 'queued'), or(isNull(m.leaseUntil), lte(m.leaseUntil, now))))
        .returning({ id: m.id });
      const sending = await countSending(tx, subject.emailIds, now);
      if (sending > 0) throw new ApiError('conflict', msg('errors.personalDataErasureSending', { count: sending }));
    }
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
    const erased = { apartment: erasedApartment(subject.extract) };
    counts.audit = await eraseAuditMentions(tx, who, wording, placeholders.recipient, erased);
    if (subject.revokeFeedIds.length) {
      const revoked = await tx
        .update(f)
        .set({ revokedAt: now })
        .where(and(equalsAnyUuid(f.id, subject.revokeFeedIds), isNull(f.revokedAt)))
        .returning({ id: f.id });
      counts.feedsRevoked = revoked.length;
    }
    // Checked again before the record is written: anything that began to wait meanwhile undoes it all.
    const waiting = await countWaiting(tx, who);
    if (waiting > 0) throw new ApiError('conflict', msg('errors.personalDataErasureWaiting', { count: waiting }));
    const records = erasedRecords(counts);
    await recordAudit(tx, actor, {
      action: 'personal-data.erase',
      targetType: 'resident',
      targetId: residentAuditTargetId(who),
      targetName: wording,
      detail: { system: subject.extract.resident.systemName, records, feedsRevoked: counts.feedsRevoked, feedsKept: subject.plan.feedsKept, counts: { ...counts }, erased },
    });
    return { counts, records, plan: subject.plan };
  });

  let mirror: MirrorRefreshOutcome = 'failed';
  if (deps.refreshMirror) {
    try {
      mirror = await deps.refreshMirror(who.deviceId);
    } catch (error) {
      log.warn('erasure: mirror refresh failed; the next refresh follows the booking system', { deviceId: who.deviceId, error });
    }
  }
  const stillInBookingSystem = (await readUserWithGroup(db, who.deviceId, who.userId)) !== null;
  // The figures only (the log's redaction would hide counts under keys that say e-mail anyway).
  log.info('resident erased', { deviceId: who.deviceId, records: done.records, feedsRevoked: done.counts.feedsRevoked, mirror, stillInBookingSystem });
  return { plan: done.plan, counts: done.counts, records: done.records, mirror, stillInBookingSystem };
}
