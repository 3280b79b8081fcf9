import { readJson } from '@/lib/api/body';
import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { requireSystemAccess } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { bookingInputSchema, parseIdempotencyKey, requestBooking } from '@/lib/reservations';
import { portalReservationDeps } from '@/lib/wiring';
import { answerResponse } from './answer';

export const dynamic = 'force-dynamic';

// POST /api/reservations — book a slot for a resident (Idempotency-Key required); 202 { request }
export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const idempotencyKey = parseIdempotencyKey(request.headers.get('idempotency-key'));
  const input = bookingInputSchema.parse(await readJson(request));
  const system = await requireSystemAccess(user, input.deviceId);
  const answer = await requestBooking(await portalReservationDeps(), { requester: user, system, input, idempotencyKey });
  return answerResponse(answer, request);
});
