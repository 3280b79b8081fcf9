import 'server-only';
import type { Database } from '@/lib/db';
import { isErrorCode } from '@/lib/errors/api-error';
import { msg, type Message } from '@/lib/i18n/message';
import { findByKey, toRequestView, type RequestRow } from '../lifecycle';
import { idempotencyKeyReused } from './refusals';
import type { ExpectedRequest, RequestAnswer } from './types';

/**
 * The answer a repeated key gets: the stored first error (its Message, when it was stored with one,
 * so it is answered in the language of whoever asks again), or 202 with the request as it is now.
 */
export function answerOf(row: RequestRow): RequestAnswer {
  const first = row.firstAnswer;
  if (first) {
    const text = first.key ? msg(first.key as Message['key'], first.values) : undefined;
    // Stored from an ErrorCode (markNotSent); the schema keeps it as text.
    const code = isErrorCode(first.code) ? first.code : 'internal_server_error';
    return { status: first.status, error: { code, message: first.message, ...(first.reason ? { reason: first.reason } : {}), ...(text ? { text } : {}) } };
  }
  return { status: 202, request: toRequestView(row) };
}

/** A key reused for another request is a client bug (422), not a replay. */
export function assertSameRequest(row: RequestRow, expected: ExpectedRequest): void {
  const same =
    row.kind === expected.kind &&
    row.deviceId === expected.deviceId &&
    (expected.resourceId === undefined || row.resourceId === expected.resourceId) &&
    (expected.residentUserId === undefined || row.residentUserId === expected.residentUserId) &&
    (expected.startMs === undefined || (row.startTime?.getTime() ?? NaN) === expected.startMs) &&
    (expected.endMs === undefined || (row.endTime?.getTime() ?? NaN) === expected.endMs) &&
    (expected.reservationId === undefined || row.reservationId === expected.reservationId);
  if (!same) throw idempotencyKeyReused();
}

/** Step 1, idempotent replay: the first answer to a key already used, or undefined for a new key. */
export async function replayIfSeen(db: Database, requestedBy: string, key: string, expected: ExpectedRequest): Promise<RequestAnswer | undefined> {
  const seen = await findByKey(db, requestedBy, key);
  if (!seen) return undefined;
  assertSameRequest(seen, expected);
  return answerOf(seen);
}
