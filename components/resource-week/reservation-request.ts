'use client';

import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useAnnounceRequest } from '@/components/booking/live-events';
import { fetchJson, HttpError } from '@/lib/client/fetch-json';
import { IntentKeys } from '@/lib/client/idempotency';
import type { RequestView } from '@/lib/events/types';
import { useErrorText } from '@/components/use-error-text';

/** What the manager asks for in the slot dialog. */
export type ReservationIntent =
  | { kind: 'book'; deviceId: string; resourceId: string; residentUserId: string; startTime: string; endTime: string; note?: string }
  | { kind: 'cancel'; deviceId: string; reservationId: string };

/** Names an intent: the same words for the same request, so that a retry of it reuses its key. */
export function intentName(intent: ReservationIntent): string {
  return intent.kind === 'book'
    ? `book ${intent.deviceId} ${intent.resourceId} ${intent.startTime}/${intent.endTime} for ${intent.residentUserId}`
    : `cancel ${intent.deviceId} ${intent.reservationId}`;
}

/** POST /api/reservations or DELETE /api/reservations/{id}?deviceId=, both answered 202 { request }. */
export async function sendReservationIntent(intent: ReservationIntent, idempotencyKey: string): Promise<RequestView> {
  const answer =
    intent.kind === 'book'
      ? await fetchJson<{ request?: RequestView }>('/api/reservations', {
          method: 'POST',
          idempotencyKey,
          body: {
            deviceId: intent.deviceId,
            resourceId: intent.resourceId,
            residentUserId: intent.residentUserId,
            startTime: intent.startTime,
            endTime: intent.endTime,
            // Only a note with words in it; the server trims and checks it too.
            ...(intent.note?.trim() ? { note: intent.note.trim() } : {}),
          },
        })
      : await fetchJson<{ request?: RequestView }>(
          `/api/reservations/${encodeURIComponent(intent.reservationId)}?deviceId=${encodeURIComponent(intent.deviceId)}`,
          { method: 'DELETE', idempotencyKey },
        );
  // A 2xx without the request is no answer we can trust (code null): a retry keeps the key.
  if (!answer?.request) throw new HttpError(200, { key: 'errors.answerWithoutRequest' });
  return answer.request;
}

/**
 * Booking and cancelling from one opening of the slot dialog, as a React Query mutation. Each
 * intent is sent with its own Idempotency-Key (lib/client/idempotency.ts): a double click sends
 * once, and a retry after no answer reuses the key, so neither can book twice. An accepted
 * request is handed to `onAccepted`, then announced like a live event (the grid shows it pending at once).
 */
export function useReservationRequest({ onAccepted }: { onAccepted: (request: RequestView) => void }) {
  const errorText = useErrorText();
  const announce = useAnnounceRequest();
  const [keys] = useState(() => new IntentKeys());
  // isPending reaches the button one render later; a second click of a double click comes sooner.
  const sending = useRef(false);
  const mutation = useMutation({
    mutationFn: ({ intent, key }: { intent: ReservationIntent; key: string }) => sendReservationIntent(intent, key),
    onSuccess: (request) => {
      // First onAccepted: a list of "requests made here" must know the id when its pending state arrives.
      onAccepted(request);
      announce(request);
    },
    onSettled: (_request, error, { intent }) => {
      sending.current = false;
      keys.settled(intentName(intent), error);
    },
  });
  return {
    send: (intent: ReservationIntent): void => {
      if (sending.current) return;
      sending.current = true;
      mutation.mutate({ intent, key: keys.keyFor(intentName(intent)) });
    },
    pending: mutation.isPending,
    /** The last attempt's failure, in the portal's words. */
    error: mutation.error ? errorText(mutation.error) : null,
  };
}
