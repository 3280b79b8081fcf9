import 'server-only';
import { and, desc, eq, getTableColumns, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { isLocale, type Locale } from '@/lib/i18n/config';
import { readClosureReason } from '@/lib/closures/read';
import type { Database } from '@/lib/db';
import { mailOutbox, type reservationRequests, systems } from '@/lib/db/schema';
import type { MailFacts, MailKind, MailSkipReason, MailStatus } from '@/lib/db/schema/mail';
import { env } from '@/lib/env';
import { readUserContact } from '@/lib/mirror/store';
import { scheduleMailKick } from './running-worker';

/**
 * The e-mail outbox, and the only code that writes `mail_outbox`. A row is written in the
 * transaction of the confirmed outcome it tells of, at most one per (reservation, kind); the
 * worker (./worker.ts) claims due rows under a lease and marks them sent, captured, retried or
 * failed.
 */

export type OutboxRow = typeof mailOutbox.$inferSelect;
type RequestRow = typeof reservationRequests.$inferSelect;

export function mailLocaleOf(value: string | null | undefined): Locale {
  return isLocale(value) ? value : env.PORTAL_DEFAULT_LOCALE;
}

/** Which e-mail a confirmed request calls for, or null (a request without its reservation or times). */
export function mailKindOf(row: Pick<RequestRow, 'kind' | 'closureId'>): MailKind {
  if (row.kind === 'create') return 'booked';
  return row.closureId ? 'closed' : 'cancelled';
}

/**
 * Called by lib/reservations/lifecycle.ts inside the transaction that confirms `row` (succeeded):
 * writes its e-mail, once per (reservation, kind). Two or three indexed reads and one insert.
 * Returns whether a row was written (false for a duplicate or a request it cannot tell of).
 */
export async function enqueueOutcomeMail(tx: Database, row: RequestRow): Promise<boolean> {
  if (row.status !== 'succeeded' || !row.reservationId || !row.startTime || !row.endTime) return false;
  const [system] = await tx
    .select({ name: systems.name, timeZone: systems.timeZone, residentMail: systems.residentMail, mailLocale: systems.mailLocale })
    .from(systems)
    .where(eq(systems.deviceId, row.deviceId));
  if (!system) return false;
  const kind = mailKindOf(row);
  const contact = row.residentUserId ? await readUserContact(tx, row.deviceId, row.residentUserId) : undefined;
  const recipient = contact?.email?.trim() || null;
  const skipReason: MailSkipReason | null = !system.residentMail ? 'disabled' : recipient === null ? 'noAddress' : null;
  const facts: MailFacts = {
    systemName: system.name,
    timeZone: system.timeZone,
    resourceId: row.resourceId ?? '',
    resourceName: row.resourceName,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime.toISOString(),
    arrangedBy: row.requestedByName,
    residentApartment: row.residentApartment,
    reason: kind === 'closed' && row.closureId ? await readClosureReason(tx, row.closureId) : null,
  };
  const inserted = await tx
    .insert(mailOutbox)
    .values({
      deviceId: row.deviceId,
      kind,
      reservationId: row.reservationId,
      requestId: row.id,
      closureId: row.closureId,
      recipient,
      recipientName: contact?.name || row.residentName,
      locale: mailLocaleOf(system.mailLocale),
      facts,
      status: skipReason ? 'skipped' : 'queued',
      skipReason,
    })
    .onConflictDoNothing({ target: [mailOutbox.reservationId, mailOutbox.kind] })
    .returning({ id: mailOutbox.id });
  if (inserted.length > 0 && !skipReason) scheduleMailKick();
  return inserted.length > 0;
}

// ---------------------------------------------------------------------------------------------
// The worker's side

/**
 * Claims up to `limit` due rows in one statement: queued, due, not leased by a live worker. Each
 * claim counts an attempt; the attempt number is the lease's token (markDelivered/markRetry only
 * change a row still queued at that attempt).
 */
export async function claimDueMail(db: Database, limit: number, leaseSeconds: number): Promise<OutboxRow[]> {
  const due = alias(mailOutbox, 'due');
  const batch = db
    .select({ id: due.id })
    .from(due)
    .where(
      and(
        sql`${due.status} = 'queued'`,
        sql`${due.nextAttemptAt} <= now()`,
        or(sql`${due.leaseUntil} IS NULL`, lt(due.leaseUntil, sql`now()`)),
      ),
    )
    .orderBy(due.nextAttemptAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})`, attempts: sql`${mailOutbox.attempts} + 1` })
    .where(and(inArray(mailOutbox.id, batch), eq(mailOutbox.status, 'queued')))
    .returning();
}

const stillMine = (row: Pick<OutboxRow, 'id' | 'attempts'>): SQL =>
  and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'queued'), eq(mailOutbox.attempts, row.attempts)) as SQL;

/** Sent (or, in capture mode, kept): only if the lease is still this worker's. */
export async function markDelivered(
  db: Database,
  row: Pick<OutboxRow, 'id' | 'attempts'>,
  result: { status: 'sent' | 'captured'; subject: string; messageId: string; raw: string },
): Promise<boolean> {
  const updated = await db
    .update(mailOutbox)
    .set({ ...result, sentAt: sql`now()`, leaseUntil: null, lastError: null })
    .where(stillMine(row))
    .returning({ id: mailOutbox.id });
  return updated.length > 0;
}

/** A temporary failure: queued again after `delaySeconds`; or, `final`, failed for good. */
export async function markAttemptFailed(
  db: Database,
  row: Pick<OutboxRow, 'id' | 'attempts'>,
  failure: { error: string; final: boolean; delaySeconds: number },
): Promise<boolean> {
  const updated = await db
    .update(mailOutbox)
    .set(
      failure.final
        ? { status: 'failed', lastError: failure.error, leaseUntil: null }
        : { lastError: failure.error, leaseUntil: null, nextAttemptAt: sql`now() + make_interval(secs => ${failure.delaySeconds})` },
    )
    .where(stillMine(row))
    .returning({ id: mailOutbox.id });
  return updated.length > 0;
}

/**
 * A failed message queued again now, with a fresh count of attempts. Returns the row, or null if it
 * was not failed, or was anonymised by retention (its address is gone: decision 034).
 */
export async function requeueFailedMail(db: Database, id: string): Promise<OutboxRow | null> {
  const [row] = await db
    .update(mailOutbox)
    .set({ status: 'queued', attempts: 0, nextAttemptAt: sql`now()`, leaseUntil: null })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'failed'), isNull(mailOutbox.anonymisedAt)))
    .returning();
  if (row) scheduleMailKick(0);
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------
// Reading (the E-mails page)

export interface MailListQuery {
  /** The systems the reader may see; 'all' for an admin. */
  deviceIds: readonly string[] | 'all';
  status?: MailStatus;
  deviceId?: string;
  /** Rows to skip (newest first). */
  offset: number;
  limit: number;
}

export type MailListRow = Omit<OutboxRow, 'raw'>;

const { raw: _raw, ...listColumns } = getTableColumns(mailOutbox);

export async function listMail(db: Database, query: MailListQuery): Promise<{ rows: MailListRow[]; more: boolean }> {
  if (query.deviceIds !== 'all' && query.deviceIds.length === 0) return { rows: [], more: false };
  const o = mailOutbox;
  const rows = await db
    .select(listColumns)
    .from(o)
    .where(
      and(
        query.deviceIds === 'all' ? undefined : inArray(o.deviceId, [...query.deviceIds]),
        query.deviceId ? eq(o.deviceId, query.deviceId) : undefined,
        query.status ? eq(o.status, query.status) : undefined,
      ),
    )
    .orderBy(desc(o.createdAt), desc(o.id))
    .offset(query.offset)
    .limit(query.limit + 1);
  return { rows: rows.slice(0, query.limit), more: rows.length > query.limit };
}

export async function readMail(db: Database, id: string): Promise<OutboxRow | undefined> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
}
