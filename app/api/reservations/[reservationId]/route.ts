import { withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { requireSystemAccess } from '@/lib/auth/access';
import { requireUser } from '@/lib/api/session';
import { cancellationInputSchema, parseIdempotencyKey, requestCancellation } from '@/lib/reservations';
import { portalReservationDeps } from '@/lib/wiring';
import { answerResponse } from '../answer';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ reservationId: string }> };

// DELETE /api/reservations/{reservationId}?deviceId=… — cancel a booking (Idempotency-Key required); 202 { request }
export const DELETE = withErrors(async (request: Request, context: Context) => {
  assertSameOrigin(request);
  const user = await requireUser();
  const idempotencyKey = parseIdempotencyKey(request.headers.get('idempotency-key'));
  const input = cancellationInputSchema.parse({
    deviceId: new URL(request.url).searchParams.get('deviceId') ?? undefined,
    reservationId: (await context.params).reservationId,
  });
  const system = await requireSystemAccess(user, input.deviceId);
  const answer = await requestCancellation(await portalReservationDeps(), { requester: user, system, input, idempotencyKey });
  return answerResponse(answer, request);
});
