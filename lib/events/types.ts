import { z } from 'zod';

/**
 * A sentence for a person, not yet in a language (lib/i18n/message.ts): events are broadcast to
 * readers of every language, so each renders it in their own.
 */
export const messageSchema = z.object({
  key: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type MessageData = z.infer<typeof messageSchema>;

/** What a browser may know of a booking request: no credentials, nothing upstream-internal. */
export const requestViewSchema = z.object({
  id: z.uuid(),
  kind: z.enum(['create', 'cancel']),
  status: z.enum(['sending', 'pending', 'succeeded', 'failed']),
  deviceId: z.uuid(),
  resourceId: z.uuid().nullable(),
  residentUserId: z.uuid().nullable(),
  reservationId: z.uuid().nullable(),
  startTime: z.iso.datetime({ offset: true }).nullable(),
  endTime: z.iso.datetime({ offset: true }).nullable(),
  requestedBy: z.string(),
  errorCode: z.string().nullable(),
  errorDescription: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  resolvedAt: z.iso.datetime({ offset: true }).nullable(),
  /** Sent, but the service's answer was lost (timeout, broken connection, unreadable): waiting for its truth. */
  outcomeUnknown: z.boolean().optional(),
  // Context for people (names, not ids); absent on events written before they existed.
  requestedByName: z.string().nullish(),
  residentName: z.string().nullish(),
  residentApartment: z.string().nullish(),
  /**
   * Retention or erasure anonymised the request (issue 47): its stored name is a placeholder in the
   * portal's default language, so the view gives no name and readers word it in their own language.
   */
  residentAnonymised: z.boolean().optional(),
  resourceName: z.string().nullish(),
  /** The manager's note on a booking made on a resident's behalf; null without one (absent on older events). */
  note: z.string().nullish(),
  /** The room closure that made this cancellation (lib/closures); null otherwise (absent on older events). */
  closureId: z.uuid().nullish(),
  /** Why it failed, as a message to render in the reader's language (lib/reservations/reasons.ts); null unless failed. */
  reason: messageSchema.nullish(),
});
export type RequestView = z.infer<typeof requestViewSchema>;

export const portalEventSchema = z.object({
  id: z.number().int().positive(),
  deviceId: z.uuid(),
  type: z.literal('request.updated'),
  data: requestViewSchema,
  createdAt: z.iso.datetime({ offset: true }),
});
export type PortalEvent = z.infer<typeof portalEventSchema>;
