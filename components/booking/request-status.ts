import type { RequestView } from '@/lib/events/types';
import { reasonText, type Words } from './words';

export type RequestStatusTone = 'neutral' | 'success' | 'danger';

/** What the Requests list says a request's state is: a short label, an optional detail, a tone. */
export interface RequestStatusText {
  label: string;
  detail: string | null;
  tone: RequestStatusTone;
}

type StatusOf = Pick<RequestView, 'kind' | 'status' | 'reason' | 'outcomeUnknown'>;

/**
 * One wording per state and kind, so "done" never stands for both a booking and a cancellation:
 * Booked / Cancelled, Failed: <reason>, Pending, Outcome unknown — checking with the service.
 */
export function requestStatusText(request: StatusOf, words: Words): RequestStatusText {
  const { t } = words;
  switch (request.status) {
    case 'sending':
      return { label: t('booking.status.sending'), detail: null, tone: 'neutral' };
    case 'pending':
      return request.outcomeUnknown
        ? { label: t('booking.status.unknown'), detail: null, tone: 'neutral' }
        : { label: t('booking.status.pending'), detail: t('booking.status.pendingDetail'), tone: 'neutral' };
    case 'succeeded':
      return { label: t('booking.status.succeeded', { kind: request.kind }), detail: null, tone: 'success' };
    case 'failed':
      return {
        label: t('booking.status.failed'),
        detail: reasonText(request.reason, words) ?? t('booking.status.notDone', { kind: request.kind }),
        tone: 'danger',
      };
  }
}

/** The state in one line, as the list's rows and cards show it ("Failed: <reason>"). */
export function requestStatusLine(request: StatusOf, words: Words): string {
  const { label, detail } = requestStatusText(request, words);
  return request.status === 'failed' && detail ? words.t('booking.status.line', { label, detail }) : label;
}
