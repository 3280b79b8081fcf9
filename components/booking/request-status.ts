import type { RequestView } from '@/lib/events/types';

export type RequestStatusTone = 'neutral' | 'success' | 'danger';

/** What the Requests list says a request's state is: a short label, an optional detail, a tone. */
export interface RequestStatusText {
  label: string;
  detail: string | null;
  tone: RequestStatusTone;
}

/**
 * One wording per state and kind, so "done" never stands for both a booking and a cancellation:
 * Booked / Cancelled, Failed: <reason>, Pending, Outcome unknown — checking with the service.
 */
export function requestStatusText(request: Pick<RequestView, 'kind' | 'status' | 'reason' | 'outcomeUnknown'>): RequestStatusText {
  switch (request.status) {
    case 'sending':
      return { label: 'Sending', detail: null, tone: 'neutral' };
    case 'pending':
      return request.outcomeUnknown
        ? { label: 'Outcome unknown — checking with the service', detail: null, tone: 'neutral' }
        : { label: 'Pending', detail: "Waiting for the service's answer.", tone: 'neutral' };
    case 'succeeded':
      return { label: request.kind === 'cancel' ? 'Cancelled' : 'Booked', detail: null, tone: 'success' };
    case 'failed':
      return {
        label: 'Failed',
        detail: request.reason ?? (request.kind === 'cancel' ? 'The booking was not cancelled.' : 'The booking was not made.'),
        tone: 'danger',
      };
  }
}

/** The state in one line, as the list's rows and cards show it ("Failed: <reason>"). */
export function requestStatusLine(request: Pick<RequestView, 'kind' | 'status' | 'reason' | 'outcomeUnknown'>): string {
  const { label, detail } = requestStatusText(request);
  return request.status === 'failed' && detail ? `${label}: ${detail}` : label;
}
