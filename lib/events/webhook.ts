import 'server-only';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { z } from 'zod';
import { serviceId } from '@/lib/service/schemas';
import type { WebhookDelivery } from './store';

// Standard Webhooks' tolerance is ±5 minutes, enforced by the library.
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;

/** The upstream envelope (service-notes.md A); the real service spells `succeded`. */
export const webhookEnvelopeSchema = z.object({
  // GUIDs, not necessarily RFC 9562 UUIDs (the service is a .NET one), in any spelling: read canonical.
  correlationId: serviceId.nullable().optional(),
  eventType: z.string().min(1).max(100),
  // Informational only: kept when readable (with or without seconds, any offset), never a reason to refuse.
  timestamp: z.string().max(64).nullable().optional(),
  eventData: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** An ISO 8601 date-time with an offset or Z, seconds optional, as a canonical UTC string; else null. */
function readableTime(value: string | null | undefined): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(value)) return null;
  const ms = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

const resultDataSchema = z
  .object({
    succeded: z.boolean().optional(),
    succeeded: z.boolean().optional(),
    errorCode: z.string().max(200).nullable().optional(),
    errorDescription: z.string().max(2000).nullable().optional(),
    data: z
      .object({ reservationId: serviceId.nullable().optional(), operation: z.string().max(50).nullable().optional() })
      .nullable()
      .optional(),
  })
  .refine((d) => d.succeded !== undefined || d.succeeded !== undefined, {
    message: 'eventData.succeded is required',
    path: ['succeded'],
  });

export class WebhookRejectedError extends Error {
  override name = 'WebhookRejectedError';
  readonly kind = 'webhook-rejected' as const;
  /** 'unauthenticated': unsigned, forged or stale; 'malformed': authentic but unusable. */
  constructor(
    message: string,
    readonly reason: 'unauthenticated' | 'malformed' = 'malformed',
  ) {
    super(message);
  }
}

/** A refused delivery, recognised by its `kind` (not `instanceof`, which a bundler's module copies break). */
export function isWebhookRejected(error: unknown): error is WebhookRejectedError {
  return error instanceof Error && (error as { kind?: unknown }).kind === 'webhook-rejected';
}

/**
 * Verifies a delivery's Standard Webhooks signature and timestamp over the raw body, then parses
 * the envelope. Throws WebhookRejectedError with a message safe to return to the sender.
 */
export function verifyWebhook(rawBody: string, headers: Headers, secret: string): WebhookDelivery {
  const id = headers.get('webhook-id');
  const timestamp = headers.get('webhook-timestamp');
  const signature = headers.get('webhook-signature');
  const missing = [
    ['webhook-id', id],
    ['webhook-timestamp', timestamp],
    ['webhook-signature', signature],
  ]
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length > 0) {
    throw new WebhookRejectedError(`Missing header: ${missing.join(', ')}.`, signature ? 'malformed' : 'unauthenticated');
  }
  if ((id ?? '').length > 200) throw new WebhookRejectedError('webhook-id is too long.');

  let payload: unknown;
  try {
    payload = new Webhook(secret).verify(rawBody, {
      'webhook-id': id ?? '',
      'webhook-timestamp': timestamp ?? '',
      'webhook-signature': signature ?? '',
    });
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      const why = /timestamp/i.test(error.message) ? 'the timestamp is outside the tolerance' : 'the signature does not match';
      throw new WebhookRejectedError(`Webhook refused: ${why}.`, 'unauthenticated');
    }
    throw new WebhookRejectedError('Webhook refused: the body is not valid JSON.');
  }

  const envelope = webhookEnvelopeSchema.safeParse(payload);
  if (!envelope.success) {
    throw new WebhookRejectedError(`Malformed event: ${envelope.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const { eventType, correlationId, eventData, timestamp: eventTime } = envelope.data;
  let outcome: WebhookDelivery['outcome'] = null;
  if (eventType === 'reservationResult') {
    if (!correlationId) throw new WebhookRejectedError('Malformed event: correlationId is required for reservationResult.');
    const result = resultDataSchema.safeParse(eventData);
    if (!result.success) {
      throw new WebhookRejectedError(`Malformed event: ${result.error.issues.map((i) => `eventData.${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
    outcome = {
      correlationId,
      succeeded: (result.data.succeded ?? result.data.succeeded) === true,
      errorCode: result.data.errorCode ?? null,
      errorDescription: result.data.errorDescription ?? null,
      reservationId: result.data.data?.reservationId ?? null,
    };
  }
  return { webhookId: id ?? '', eventType, eventTime: readableTime(eventTime), payload, outcome };
}
