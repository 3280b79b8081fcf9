import 'server-only';
import { and, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '@/lib/db';
import { APARTMENT_WORD_PATTERN } from '@/lib/i18n/format';
import { adminAudit, mailOutbox, mirrorReleasedNoShows, portalEvents, reservationRequests, roomClosures, webhookEvents } from '@/lib/db/schema';

// The anonymiser (issue 37, decision 034): per table, the rows a condition chooses lose their
// personal data and keep what reports, statistics and links between rows need (ids of rooms,
// bookings and apartments, times, statuses, outcome codes). Rows are never deleted. Each row is
// marked (`anonymised_at`, or `body_dropped_at` for an e-mail's body), so doing it again changes
// nothing, and a batch is one statement: a run stopped anywhere resumes with the rows left.
// Retention calls it with an age; erasure of one resident is to call it with a condition on them.

/** What replaces a name: worded in the portal's language by the caller (lib/wiring.ts). */
export interface Placeholders {
  /** A resident with an apartment, `{apartment}` standing for its number: "Resident in LGH {apartment}". */
  residentIn: string;
  /** A resident whose apartment is unknown. */
  resident: string;
  /** A manager or admin whose name is removed. */
  person: string;
  /** Where an e-mail went, once the address is removed: never an address. */
  recipient: string;
}

export const ENGLISH_PLACEHOLDERS: Placeholders = {
  residentIn: 'Resident in LGH {apartment}',
  resident: 'Resident',
  person: 'Anonymised',
  recipient: '(anonymised)',
};

/**
 * What `reservation_requests.requested_by` becomes once its account is gone: the nil UUID, which is
 * no account (reports look the column up among the accounts' uuids).
 */
export const ANONYMISED_ACCOUNT = '00000000-0000-0000-0000-000000000000';

export interface AnonymiseOptions {
  /** The rows one call changes at most (one statement). */
  limit: number;
  placeholders: Placeholders;
  /** Written into the rows' mark. */
  now: Date;
  /**
   * Rows another transaction holds: skipped (retention, whose next run takes them) unless false
   * (erasure, which must reach every row of the resident and so waits for the lock).
   */
  skipLocked?: boolean;
  /**
   * Remembered no-shows: the apartment's group to put a user's booking on when the current copy of
   * the user list no longer knows the user (erasure knows it from the resident's records).
   */
  ownerGroupId?: string | null;
}

/** The tables (and steps) the anonymiser knows, each a function of (db, condition on that table, options) → rows changed. */
export type AnonymiseStep = (db: Database, condition: SQL | undefined, options: AnonymiseOptions) => Promise<number>;

/**
 * The rows a step changes next, as the update's condition: at most `limit` rows the condition
 * chooses that are not yet marked, oldest first, locked (FOR UPDATE; skipping rows another runner
 * holds unless `skipLocked` is false), and still unmarked when the update reaches them.
 */
function nextBatch(
  db: Database,
  batch: { table: PgTable; key: PgColumn; mark: PgColumn; age: PgColumn; also?: SQL },
  condition: SQL | undefined,
  { limit, skipLocked = true }: Pick<AnonymiseOptions, 'limit' | 'skipLocked'>,
): SQL {
  const chosen = db
    .select({ key: batch.key })
    .from(batch.table)
    .where(and(condition, isNull(batch.mark), batch.also))
    .orderBy(batch.age, batch.key)
    .limit(limit)
    .for('update', skipLocked ? { skipLocked: true } : {});
  return and(inArray(batch.key, chosen), isNull(batch.mark))!;
}

export interface RepeatOptions {
  /** Batches at most (a step whose rows were not marked cannot loop for ever). */
  maxBatches: number;
  /** Asked before each batch: true stops there (shutdown), the rest left for later. */
  shouldStop?: () => boolean;
  /** Between two batches (retention renews its lease): false stops there. */
  betweenBatches?: () => Promise<boolean>;
  /** After each batch, with the rows it changed (so a later batch's failure loses no count). */
  onBatch?: (changed: number) => void;
}

/**
 * Runs a step on the rows `condition` chooses, a batch at a time, until a batch changes fewer than
 * `limit` rows. `complete` is false when it stopped before that (told to, or out of batches).
 */
export async function repeatStep(
  db: Database,
  step: AnonymiseStep,
  condition: SQL | undefined,
  options: AnonymiseOptions,
  repeat: RepeatOptions,
): Promise<{ changed: number; batches: number; complete: boolean }> {
  let changed = 0;
  let batches = 0;
  for (;;) {
    if (repeat.shouldStop?.() || batches >= repeat.maxBatches) return { changed, batches, complete: false };
    const n = await step(db, condition, options);
    batches += 1;
    changed += n;
    repeat.onBatch?.(n);
    if (n < options.limit) return { changed, batches, complete: true };
    if (repeat.betweenBatches && !(await repeat.betweenBatches())) return { changed, batches, complete: false };
  }
}

/**
 * "Resident in LGH 1001" for an apartment (an SQL text expression), the bare word without one. The
 * number as apartmentNumber() gives it: the service's own leading "LGH" dropped, never "LGH LGH 1001".
 */
function residentPlaceholder(apartment: SQL, p: Placeholders): SQL {
  return sql`CASE WHEN nullif(btrim(${apartment}), '') IS NULL THEN ${p.resident}::text ELSE replace(${p.residentIn}::text, '{apartment}', regexp_replace(btrim(${apartment}), ${APARTMENT_WORD_PATTERN}::text, '', 'i')) END`;
}

/** An account id kept while the account exists (reports count bookings per manager), a fixed word once it is gone. */
function accountWhileItExists(id: SQL): SQL {
  return sql`CASE WHEN EXISTS (SELECT 1 FROM users u WHERE u.id::text = ${id}) THEN ${id} ELSE ${ANONYMISED_ACCOUNT}::text END`;
}

/**
 * Booking requests: the resident's name becomes the apartment's wording, the note and the name of
 * who asked go, the resident's user id goes, and the idempotency key and stored first answer go
 * (a repeat can no longer come). Room, times, status, error code, apartment and its group stay.
 */
export const anonymiseRequests: AnonymiseStep = async (db, condition, options) => {
  const { placeholders, now } = options;
  const t = reservationRequests;
  const batch = nextBatch(db, { table: t, key: t.id, mark: t.anonymisedAt, age: t.createdAt }, condition, options);
  const rows = await db
    .update(t)
    .set({
      residentName: sql`CASE WHEN ${t.residentName} IS NULL THEN NULL ELSE ${residentPlaceholder(sql`${t.residentApartment}`, placeholders)} END`,
      residentUserId: null,
      requestedBy: accountWhileItExists(sql`${t.requestedBy}`),
      requestedByName: null,
      note: null,
      firstAnswer: null,
      idempotencyKey: null,
      anonymisedAt: now,
    })
    .where(batch)
    .returning({ id: t.id });
  return rows.length;
};

/** A request's events: the same, inside the JSON a browser was sent (a failure's sentence keeps its key, not its values). */
export const anonymisePortalEvents: AnonymiseStep = async (db, condition, options) => {
  const { placeholders, now } = options;
  const t = portalEvents;
  const batch = nextBatch(db, { table: t, key: t.id, mark: t.anonymisedAt, age: t.createdAt }, condition, options);
  const d = sql`${t.data}`;
  const rows = await db
    .update(t)
    .set({
      data: sql`${d} || jsonb_build_object(
        'residentUserId', NULL::text,
        'requestedByName', NULL::text,
        'note', NULL::text,
        'requestedBy', ${accountWhileItExists(sql`(${d} ->> 'requestedBy')`)},
        'residentName', CASE WHEN ${d} ->> 'residentName' IS NULL THEN NULL ELSE ${residentPlaceholder(sql`(${d} ->> 'residentApartment')`, placeholders)} END,
        'reason', CASE WHEN jsonb_typeof(${d} -> 'reason') = 'object' THEN jsonb_build_object('key', ${d} -> 'reason' -> 'key') ELSE ${d} -> 'reason' END)`,
      anonymisedAt: now,
    })
    .where(batch)
    .returning({ id: t.id });
  return rows.length;
};

/** Webhook deliveries: only the envelope and the outcome stay (correlation id, type, time, succeeded, error code, reservation id, operation). */
export const anonymiseWebhookEvents: AnonymiseStep = async (db, condition, options) => {
  const { now } = options;
  const t = webhookEvents;
  const batch = nextBatch(db, { table: t, key: t.webhookId, mark: t.anonymisedAt, age: t.receivedAt }, condition, options);
  const p = sql`${t.payload}`;
  const e = sql`(${p} -> 'eventData')`;
  const rows = await db
    .update(t)
    .set({
      payload: sql`jsonb_strip_nulls(jsonb_build_object(
        'correlationId', ${p} -> 'correlationId',
        'eventType', ${p} -> 'eventType',
        'timestamp', ${p} -> 'timestamp',
        'eventData', CASE WHEN jsonb_typeof(${e}) = 'object' THEN jsonb_strip_nulls(jsonb_build_object(
          'succeeded', coalesce(${e} -> 'succeeded', ${e} -> 'succeded'),
          'errorCode', ${e} -> 'errorCode',
          'data', CASE WHEN jsonb_typeof(${e} -> 'data') = 'object' THEN jsonb_strip_nulls(jsonb_build_object(
            'reservationId', ${e} -> 'data' -> 'reservationId',
            'operation', ${e} -> 'data' -> 'operation')) END)) END))`,
      anonymisedAt: now,
    })
    .where(batch)
    .returning({ id: t.webhookId });
  return rows.length;
};

/**
 * Room closures: the reason (free text a manager may have named someone in) becomes a dash, the
 * closer's name goes, and each target loses the resident's name and its refusal's values; its
 * booking, room, times, apartment and outcome kind stay.
 */
export const anonymiseClosures: AnonymiseStep = async (db, condition, options) => {
  const { now } = options;
  const t = roomClosures;
  const batch = nextBatch(db, { table: t, key: t.id, mark: t.anonymisedAt, age: t.createdAt }, condition, options);
  const rows = await db
    .update(t)
    .set({
      // The column must hold 1–200 characters: a dash, which names no one and reads the same in every language.
      reason: '–',
      createdByName: null,
      targets: sql`(SELECT coalesce(jsonb_agg(
          CASE WHEN jsonb_typeof(x.t -> 'outcome') = 'object' THEN (x.t - 'residentName') || jsonb_build_object('outcome', (x.t -> 'outcome') - 'values') ELSE x.t - 'residentName' END
          ORDER BY x.ord), '[]'::jsonb)
        FROM jsonb_array_elements(${t.targets}) WITH ORDINALITY AS x(t, ord))`,
      anonymisedAt: now,
    })
    .where(batch)
    .returning({ id: t.id });
  return rows.length;
};

/** The message as sent goes (body, calendar attachment, subject, the server's last refusal); a queued message is left to be sent. */
export const dropMailBodies: AnonymiseStep = async (db, condition, options) => {
  const { now } = options;
  const t = mailOutbox;
  const batch = nextBatch(db, { table: t, key: t.id, mark: t.bodyDroppedAt, age: t.createdAt, also: sql`${t.status} <> 'queued'` }, condition, options);
  const rows = await db
    .update(t)
    .set({ raw: null, subject: null, lastError: null, bodyDroppedAt: now })
    .where(batch)
    .returning({ id: t.id });
  return rows.length;
};

/**
 * Who an e-mail went to: the address becomes a placeholder that is no address, the name the
 * apartment's wording, and the facts lose who arranged it and a closure's reason (the body goes too,
 * if still there: it holds the same). That it was sent, when, its kind and status stay.
 */
export const anonymiseMailMeta: AnonymiseStep = async (db, condition, options) => {
  const { placeholders, now } = options;
  const t = mailOutbox;
  const batch = nextBatch(db, { table: t, key: t.id, mark: t.anonymisedAt, age: t.createdAt, also: sql`${t.status} <> 'queued'` }, condition, options);
  const rows = await db
    .update(t)
    .set({
      recipient: sql`CASE WHEN ${t.recipient} IS NULL THEN NULL ELSE ${placeholders.recipient}::text END`,
      recipientName: sql`CASE WHEN ${t.recipientName} IS NULL THEN NULL ELSE ${residentPlaceholder(sql`(${t.facts} ->> 'residentApartment')`, placeholders)} END`,
      facts: sql`${t.facts} || jsonb_build_object('arrangedBy', NULL::text) || CASE WHEN ${t.facts} ? 'reason' THEN jsonb_build_object('reason', NULL::text) ELSE '{}'::jsonb END`,
      raw: null,
      subject: null,
      lastError: null,
      bodyDroppedAt: sql`coalesce(${t.bodyDroppedAt}, ${now.toISOString()}::timestamptz)`,
      anonymisedAt: now,
    })
    .where(batch)
    .returning({ id: t.id });
  return rows.length;
};

/**
 * Audit entries: an admin's id and name go (the command line and the portal's own jobs are no
 * person and keep theirs); an account target loses its id and name; e-mail addresses and account
 * names leave the detail. The action, its time and the systems it touched stay.
 */
export const anonymiseAudit: AnonymiseStep = async (db, condition, options) => {
  const { placeholders, now } = options;
  const t = adminAudit;
  const batch = nextBatch(db, { table: t, key: t.id, mark: t.anonymisedAt, age: t.createdAt }, condition, options);
  const account = sql`${t.targetType} = 'account'`;
  const rows = await db
    .update(t)
    .set({
      actorName: sql`CASE WHEN ${t.actorId} IS NULL THEN ${t.actorName} ELSE ${placeholders.person}::text END`,
      actorId: null,
      targetId: sql`CASE WHEN ${account} THEN NULL ELSE ${t.targetId} END`,
      targetName: sql`CASE WHEN ${account} THEN ${placeholders.person}::text ELSE ${t.targetName} END`,
      detail: sql`CASE WHEN ${t.detail} IS NULL THEN NULL WHEN ${account} THEN ${t.detail} - 'email' - 'name' ELSE ${t.detail} - 'email' END`,
      anonymisedAt: now,
    })
    .where(batch)
    .returning({ id: t.id });
  return rows.length;
};

/**
 * Remembered no-shows: the user id goes. A booking a user held is put on their apartment's group
 * (from the current copy of the user list, else `ownerGroupId`), as the no-show report places it
 * anyway, so its figures stay; a user nobody can place was unplaced before and stays so.
 */
export const anonymiseReleasedNoShows: AnonymiseStep = async (db, condition, { limit, now, skipLocked = true, ownerGroupId = null }) => {
  const k = mirrorReleasedNoShows;
  const rows = await db
    .update(k)
    .set({
      ownerId: sql`CASE WHEN ${k.ownerType} = 'User' THEN coalesce((
          SELECT u.user_group_id FROM mirror_users u JOIN mirror_state s ON s.device_id = u.device_id AND s.generation = u.generation
           WHERE u.device_id = ${k.deviceId} AND u.id = coalesce(${k.userId}, ${k.ownerId})), ${ownerGroupId}::uuid) ELSE ${k.ownerId} END`,
      ownerType: sql`CASE WHEN ${k.ownerType} = 'User' THEN 'Group' ELSE ${k.ownerType} END`,
      userId: null,
      anonymisedAt: now,
    })
    .where(
      and(
        isNull(k.anonymisedAt),
        sql`(${k.deviceId}, ${k.id}) IN (SELECT ${k.deviceId}, ${k.id} FROM ${k}
              WHERE ${and(condition, isNull(k.anonymisedAt))}
              ORDER BY ${k.startTime}, ${k.id} LIMIT ${limit} FOR UPDATE ${skipLocked ? sql`SKIP LOCKED` : sql``})`,
      ),
    )
    .returning({ id: k.id });
  return rows.length;
};

/**
 * What the anonymiser does to each personal column of the retention classes it serves, by
 * `table.column` (lib/db/personal-data.test.ts checks every such column is here). "kept" says why a
 * column stays: what it points to is an apartment, not a person, or an account while it exists.
 */
export const RETENTION_COVERS: Readonly<Record<string, string>> = {
  'reservation_requests.resident_user_id': 'emptied',
  'reservation_requests.requested_by': 'kept while the manager’s account exists (reports count bookings per manager), then a fixed word',
  'reservation_requests.resident_name': 'the apartment’s wording: “Resident in LGH 1001”',
  'reservation_requests.resident_apartment': 'kept: the apartment is the unit of reports, quotas and the wording that replaces the name',
  'reservation_requests.resident_group_id': 'kept: the apartment’s group, for its history and reports',
  'reservation_requests.requested_by_name': 'emptied',
  'reservation_requests.first_answer': 'emptied (with the idempotency key: a repeat can no longer come)',
  'reservation_requests.note': 'emptied',
  'portal_events.data': 'the resident’s name, user id, note, who asked by name and a failure’s values removed',
  'webhook_events.payload': 'only the envelope and the outcome kept',
  'mail_outbox.recipient': 'a placeholder that is no address',
  'mail_outbox.recipient_name': 'the apartment’s wording',
  'mail_outbox.facts': 'who arranged it and a closure’s reason removed',
  'mail_outbox.last_error': 'dropped',
  'mail_outbox.subject': 'dropped',
  'mail_outbox.raw': 'dropped',
  'room_closures.reason': 'a dash',
  'room_closures.created_by_name': 'emptied',
  'room_closures.targets': 'each target’s resident name and refusal values removed',
  'mirror_released_no_shows.user_id': 'emptied',
  'mirror_released_no_shows.owner_id': 'a user becomes their apartment’s group',
  'admin_audit.actor_id': 'emptied',
  'admin_audit.actor_name': 'a placeholder',
  'admin_audit.target_id': 'emptied when the target is an account',
  'admin_audit.target_name': 'a placeholder when the target is an account',
  'admin_audit.detail': 'e-mail addresses and account names removed',
};
