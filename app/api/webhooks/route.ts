import { errorResponse } from '@/lib/errors/api-error';
import { withErrors } from '@/lib/api/route';
import { getDb } from '@/lib/db';
import { getEventBus } from '@/lib/events/bus';
import { handleWebhookRequest } from '@/lib/events/receive';
import { getWebhookSecret } from '@/lib/events/webhook-secret';
import { log } from '@/lib/log';
import { applyWebhookOutcome, wakeReconciler } from '@/lib/reservations';

export const dynamic = 'force-dynamic';

// POST /api/webhooks — receive signed reservation outcomes from the service
export const POST = withErrors(async (request: Request) => {
  let deps;
  try {
    const [{ db }, secret] = await Promise.all([getDb(), getWebhookSecret()]);
    deps = { db, secret, bus: getEventBus(), applyOutcome: applyWebhookOutcome, onUnmatchedOutcome: wakeReconciler };
  } catch (error) {
    // Without the database nothing can be stored: ask the sender to retry.
    log.error('webhook not accepted: database unavailable', { error });
    return errorResponse('service_unavailable', 'The event could not be stored; please retry.', {}, { 'Retry-After': '5' });
  }
  return handleWebhookRequest(request, deps);
});
