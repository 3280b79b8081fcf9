import 'server-only';
import type { Database } from '@/lib/db';
import type { ApiError } from '@/lib/errors/api-error';
import type { Accepted } from '@/lib/service';
import { claimRequest, type NewRequest } from '../lifecycle';
import { answerOf, assertSameRequest } from './replay';
import { send } from './send';
import type { ExpectedRequest, RequestAnswer, ReservationDeps } from './types';

/**
 * Step 4, claim: records the request ('sending', lib/reservations/lifecycle.ts) under the caller's
 * key, `guard` (the quota) checked in the same transaction, then sends it once (send.ts). A key
 * used meanwhile (a double click racing this one) gets the first answer instead; an open request
 * for the same slot or reservation is a 409 with `clash` as its sentence.
 */
export async function claimAndSend(
  deps: ReservationDeps,
  request: NewRequest,
  expected: ExpectedRequest,
  clash: ApiError,
  call: () => Promise<Accepted>,
  guard?: (tx: Database) => Promise<void>,
): Promise<RequestAnswer> {
  const claimed = await claimRequest(deps.db, request, guard);
  if ('clash' in claimed) throw clash;
  if (!claimed.fresh) {
    assertSameRequest(claimed.row, expected);
    return answerOf(claimed.row);
  }
  return send(deps, claimed.row.id, call);
}
