import 'server-only';
import { z } from 'zod';
import { ApiError } from '@/lib/errors/api-error';
import { managerHasSystem } from '@/lib/auth/users';
import type { SessionUser } from '@/lib/auth/schemas';
import type { Database } from '@/lib/db';
import { MAIL_STATUSES, type MailStatus } from '@/lib/db/schema/mail';
import { env } from '@/lib/env';
import { parseWholeNumber } from '@/lib/http/whole-number';
import { msg } from '@/lib/i18n/message';
import { listMail, readMail, requeueFailedMail, type MailListRow, type OutboxRow } from './outbox';
import { renderRow } from './worker';
import type { RenderedMail } from './render';

/** The E-mails page's reads and actions, checked against who asks: admins see all, managers their systems'. */

export const MAIL_PAGE_SIZE = 50;

const mailIdSchema = z.uuid();

/** Not found and not allowed answer alike: no one learns which messages exist elsewhere. */
const notFound = () => new ApiError('not_found', msg('errors.mailNotFound'));

export function parseMailId(value: string): string {
  const parsed = mailIdSchema.safeParse(value);
  if (!parsed.success) throw notFound();
  return parsed.data;
}

export interface MailFilters {
  status?: MailStatus;
  deviceId?: string;
  page: number;
}

/** The page's query string, leniently: an unknown status or system shows everything, a bad page the first. */
export function parseMailFilters(params: URLSearchParams): MailFilters {
  const status = params.get('status');
  const deviceId = params.get('deviceId');
  const page = parseWholeNumber(params.get('page') ?? '1') ?? 1;
  return {
    status: (MAIL_STATUSES as readonly string[]).includes(status ?? '') ? (status as MailStatus) : undefined,
    deviceId: deviceId && mailIdSchema.safeParse(deviceId).success ? deviceId : undefined,
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

export function listMailFor(db: Database, visible: readonly string[] | 'all', filters: MailFilters): Promise<{ rows: MailListRow[]; more: boolean }> {
  if (filters.deviceId && visible !== 'all' && !visible.includes(filters.deviceId)) return Promise.resolve({ rows: [], more: false });
  return listMail(db, { deviceIds: visible, status: filters.status, deviceId: filters.deviceId, offset: (filters.page - 1) * MAIL_PAGE_SIZE, limit: MAIL_PAGE_SIZE });
}

export async function readMailFor(db: Database, user: SessionUser, id: string): Promise<OutboxRow> {
  const row = await readMail(db, parseMailId(id));
  if (!row) throw notFound();
  if (user.role !== 'admin' && !(await managerHasSystem(db, user.id, row.deviceId))) throw notFound();
  return row;
}

/** What the resident receives (or would): the stored message when there is one, else rendered from the facts. */
export async function previewOf(row: OutboxRow): Promise<RenderedMail> {
  return renderRow(row, env.MAIL_FROM);
}

export async function retryMailFor(db: Database, user: SessionUser, id: string): Promise<OutboxRow> {
  const row = await readMailFor(db, user, id);
  const requeued = await requeueFailedMail(db, row.id);
  if (!requeued && row.anonymisedAt) throw new ApiError('conflict', msg('errors.mailAnonymised'));
  if (!requeued) throw new ApiError('conflict', msg('errors.mailNotRetryable', { status: row.status }));
  return requeued;
}

export const MAIL_FILES = ['eml', 'ics', 'html'] as const;
export type MailFile = (typeof MAIL_FILES)[number];

/** A download of a message: the .eml as delivered or captured (rendered afresh when none is kept), its .ics, or its HTML part. */
export async function mailFile(row: OutboxRow, file: MailFile): Promise<{ body: string; type: string; name: string }> {
  if (file === 'eml') {
    if (!row.raw) {
      const { composeRaw } = await import('./worker');
      return { body: (await composeRaw(row, env.MAIL_FROM)).raw, type: 'message/rfc822', name: `${row.kind}-${row.reservationId}.eml` };
    }
    return { body: row.raw, type: 'message/rfc822', name: `${row.kind}-${row.reservationId}.eml` };
  }
  const rendered = await previewOf(row);
  if (file === 'html') return { body: rendered.html, type: 'text/html; charset=utf-8', name: `${row.kind}-${row.reservationId}.html` };
  return { body: rendered.ics, type: 'text/calendar; charset=utf-8', name: `${row.kind}-${row.reservationId}.ics` };
}
