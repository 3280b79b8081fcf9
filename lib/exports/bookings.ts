import 'server-only';
import { createTranslator } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { loadMessages } from '@/lib/i18n/messages';
import type { Database } from '@/lib/db';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { readReservationPage, type ReservationPageCursor, type ReservationPageRow } from '@/lib/mirror/reservation-pages';
import { mirrorSnapshot, type MirrorSnapshot } from '@/lib/mirror/snapshot';
import type { SystemPublic } from '@/lib/systems/schemas';
import { systemMirror, type ViewDeps } from '@/lib/views/freshness';
import type { Period } from '@/lib/reports/period';
import { listBookingOrigins } from '@/lib/reservations/lifecycle';
import { localDateText } from './local-time';
import { localDateCell, localTimeCell, type ExportCell, type ExportTable } from './types';

/** Reservations read per query: a year of a large system (50k) is 25 queries, never all at once. */
export const BOOKINGS_BATCH = 2_000;

export const BOOKING_COLUMNS = ['date', 'start', 'end', 'room', 'apartment', 'resident', 'status', 'bookedBy'] as const;
export const BOOKING_STATUSES = ['booked', 'used', 'unused', 'maintenance', 'unknown'] as const;
export type BookingStatusWord = (typeof BOOKING_STATUSES)[number];

/**
 * What became of a reservation, in the words of the export: a maintenance window (owned by the
 * service), used, a no-show (unused and over), booked (unused and not yet over), or a status the
 * interface does not list.
 */
export function bookingStatus(r: { ownerType: string; status: string; endMs: number }, nowMs: number): BookingStatusWord {
  if (r.ownerType === 'Service') return 'maintenance';
  if (r.status === 'Used') return 'used';
  if (r.status === 'Unused') return r.endMs <= nowMs ? 'unused' : 'booked';
  return 'unknown';
}

export interface BookingsExportInput {
  db: Database;
  deviceId: string;
  timeZone: string;
  period: Period;
  locale: Locale;
  /** The current generation's resources and groups (room names, apartments). */
  snapshot: MirrorSnapshot;
  now?: Date;
  batchSize?: number;
}

/** The words of the bookings table in a language: sheet title, headers, status words. */
export async function bookingWords(locale: Locale) {
  const t = createTranslator({ locale, messages: await loadMessages(locale), namespace: 'exports.bookings' });
  return {
    title: t('title'),
    fileWord: t('fileWord'),
    headers: BOOKING_COLUMNS.map((c) => t(`headers.${c}`)),
    status: Object.fromEntries(BOOKING_STATUSES.map((s) => [s, t(`status.${s}`)])) as Record<BookingStatusWord, string>,
  };
}

/**
 * The system's bookings starting in the period, from the mirror's current generation, as an
 * export table. Rows are read lazily in keyset-paginated batches ordered by (start_time, id): the
 * next query runs only when the consumer has taken the previous batch. Should a refresh switch
 * generations mid-export, the next batch reads the new one from the same position (ids are the
 * upstream's and stable).
 */
export async function bookingsExportTable(input: BookingsExportInput): Promise<ExportTable> {
  const words = await bookingWords(input.locale);
  return { id: 'bookings', title: words.title, headers: words.headers, rows: bookingRows(input, words.status) };
}

async function* bookingRows(input: BookingsExportInput, statusWords: Record<BookingStatusWord, string>): AsyncGenerator<readonly ExportCell[]> {
  const { db, deviceId, timeZone, period, snapshot } = input;
  const nowMs = (input.now ?? new Date()).getTime();
  const limit = input.batchSize ?? BOOKINGS_BATCH;
  const range = { from: new Date(period.startMs), to: new Date(period.endMs) };
  let cursor: ReservationPageCursor | null = null;
  for (;;) {
    const rows: ReservationPageRow[] = await readReservationPage(db, deviceId, range, cursor, limit);
    if (rows.length === 0) return;
    const origins = new Map((await listBookingOrigins(db, deviceId, rows.map((row) => row.id))).map((o) => [o.reservationId, o]));
    for (const row of rows) {
      const startMs = row.startTime.getTime();
      const endMs = row.endTime.getTime();
      const origin = origins.get(row.id);
      const groupId = row.ownerType === 'Group' ? row.ownerId : row.userGroupId;
      const group = groupId ? snapshot.groupById.get(groupId) : undefined;
      const maintenance = row.ownerType === 'Service';
      const sameDay = localDateText(endMs, timeZone) === localDateText(startMs, timeZone);
      yield [
        localDateCell(startMs),
        localTimeCell(startMs),
        // An end on a later day (a midnight-crossing slot) says which day: a date-time.
        sameDay ? localTimeCell(endMs) : new Date(endMs),
        snapshot.resourceById.get(row.resourceId)?.name ?? '',
        maintenance ? '' : group?.apartmentId.trim() || group?.name.trim() || '',
        maintenance ? '' : row.userName?.trim() || origin?.residentName?.trim() || '',
        statusWords[bookingStatus({ ownerType: row.ownerType, status: row.status, endMs }, nowMs)],
        origin?.requestedByName?.trim() || '',
      ];
    }
    if (rows.length < limit) return;
    const last: ReservationPageRow = rows[rows.length - 1]!;
    cursor = { start: last.startTime, id: last.id };
  }
}

/**
 * The bookings export of a system for a period, ready to stream: the mirror brought up to date
 * as every view does (503 while its first load runs), then the lazy table over its generation.
 */
export async function loadBookingsExport(
  deps: ViewDeps,
  system: Pick<SystemPublic, 'deviceId' | 'timeZone'>,
  period: Period,
  locale: Locale,
): Promise<ExportTable> {
  const { freshness, state } = await systemMirror(deps, system.deviceId);
  const snapshot = freshness.status === 'loading' || !state ? null : await mirrorSnapshot(deps.db, system.deviceId, state);
  if (!snapshot) throw new ApiError('service_unavailable', msg('errors.stillLoading'), { 'Retry-After': '5' });
  return bookingsExportTable({ db: deps.db, deviceId: system.deviceId, timeZone: system.timeZone, period, locale, snapshot, now: deps.now?.() });
}
