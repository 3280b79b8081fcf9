import 'server-only';
import { errorResponse } from '@/lib/errors/api-error';
import { readBodyCapped } from '@/shared/read-capped';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';
import { getMetrics } from '@/lib/observability/metrics';
import type { EventBus } from './bus-types';
import { recordWebhookDelivery, type OutcomeApplier } from './store';
import { isWebhookRejected, MAX_WEBHOOK_BODY_BYTES, verifyWebhook } from './webhook';

export interface WebhookDeps {
  db: Database;
  bus: EventBus;
  secret: string;
  /** Applies an outcome to its booking request (lib/reservations owns them), in the webhook's transaction. */
  applyOutcome: OutcomeApplier;
  /** Called when an outcome matched no request while one waits with an unknown outcome. */
  onUnmatchedOutcome?: () => void;
}

/** Receipt time minus the event's own timestamp, when it carried a readable one (redeliveries included). */
function observeLag(eventType: string, eventTime: string | null): void {
  if (eventTime === null) return;
  const lagSeconds = (Date.now() - Date.parse(eventTime)) / 1000;
  // A sender's clock ahead of ours is not a lag; a label per event type the service invents is bounded by the cap.
  getMetrics().webhookLag.observe({ event_type: eventType.slice(0, 40) }, Math.max(0, lagSeconds));
}

/**
 * Verify, store once, then publish. Answers 2xx only after the commit, 4xx for anything that
 * must not be retried as is (nothing stored), and 503 when storing failed so the sender retries.
 */
export async function handleWebhookRequest(request: Request, deps: WebhookDeps): Promise<Response> {
  const raw = await readBodyCapped(request.body, MAX_WEBHOOK_BODY_BYTES).catch(() => null);
  if (raw === null) return errorResponse('payload_too_large', `Webhook body is larger than ${MAX_WEBHOOK_BODY_BYTES} bytes.`);
  let delivery;
  try {
    delivery = verifyWebhook(raw, request.headers, deps.secret);
  } catch (error) {
    if (!isWebhookRejected(error)) throw error;
    log.warn('webhook refused', { reason: error.message, webhookId: request.headers.get('webhook-id') });
    return errorResponse(error.reason === 'unauthenticated' ? 'unauthorized' : 'bad_request', error.message);
  }
  observeLag(delivery.eventType, delivery.eventTime);
  let result;
  try {
    result = await recordWebhookDelivery(deps.db, delivery, deps.applyOutcome);
  } catch (error) {
    log.error('webhook not stored: database error', { error, webhookId: delivery.webhookId });
    return errorResponse('service_unavailable', 'The event could not be stored; please retry.', {}, { 'Retry-After': '5' });
  }
  deps.bus.publish(result.events);
  if (result.unmatched) deps.onUnmatchedOutcome?.();
  return Response.json(
    { received: true, duplicate: !result.stored },
    { status: 200, headers: { 'Cache-Control': 'no-store' } },
  );
}
