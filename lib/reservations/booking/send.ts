import 'server-only';
import { env } from '@/lib/env';
import { ApiError, ErrorCode, renderApiError, toApiError } from '@/lib/errors/api-error';
import type { PortalEvent } from '@/lib/events/types';
import { msg } from '@/lib/i18n/message';
import { log } from '@/lib/log';
import { isServiceError, type Accepted } from '@/lib/service';
import { markNotSent, markOutcomeUnknown, markRequestAccepted, readRequest } from '../lifecycle';
import { NOT_SENT } from '../reasons';
import type { RequestAnswer, ReservationDeps } from './types';

function publish(deps: ReservationDeps, events: PortalEvent[]) {
  if (events.length > 0) deps.bus.publish(events);
}

/**
 * Step 5, send: the upstream call, once. Accepted → pending with its correlation id. A definite
 * refusal (4xx, 429, the breaker open, no token, a connection refused) → failed "not sent" with the
 * reason, and that error is the answer (also to a repeated key). Anything else that went wrong after
 * the request left — a timeout, a broken connection, a 5xx, an unreadable 2xx — may have been acted
 * on: the request stays pending ("sent, waiting for the service's answer") and the reconciler
 * settles it from the service's reservations, so the portal never calls a booking that was made
 * "failed". Each state change is published on the bus (→ the event store and SSE).
 */
export async function send(deps: ReservationDeps, requestId: string, call: () => Promise<Accepted>): Promise<RequestAnswer> {
  let accepted: Accepted;
  try {
    accepted = await call();
  } catch (error) {
    if (isServiceError(error) && error.effect === 'unknown') {
      log.warn('booking request sent, outcome unknown; the reconciler settles it', {
        requestId,
        kind: error.kind,
        operation: error.operation,
        status: error.status,
        detail: error.message,
      });
      const events = await markOutcomeUnknown(deps.db, requestId);
      publish(deps, events);
      return { status: 202, request: await readRequest(deps.db, requestId) };
    }
    const known = toApiError(error);
    if (!known) log.error('booking request failed before it was sent', { requestId, error });
    const apiError = known ?? new ApiError('internal_server_error', msg('errors.notSent'));
    // Kept for a repeated key: the Message (answered in the asker's language) and its sentence in
    // the portal's default language (the request's failure reason).
    const answer = {
      status: ErrorCode[apiError.code],
      code: apiError.code,
      message: await renderApiError(apiError, env.PORTAL_DEFAULT_LOCALE),
      reason: apiError.reason,
      key: apiError.text.key,
      ...(apiError.text.values ? { values: apiError.text.values as Record<string, string | number> } : {}),
    };
    const events = await markNotSent(deps.db, requestId, answer, NOT_SENT);
    publish(deps, events);
    throw apiError;
  }
  const events = await markRequestAccepted(deps.db, requestId, accepted.correlationId);
  publish(deps, events);
  return { status: 202, request: await readRequest(deps.db, requestId) };
}
