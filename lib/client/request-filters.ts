// Browser-safe: the Requests page's filters, as the URL and GET /api/requests carry them. The
// server parses them (lib/views/request-filters.ts); the page builds its links with these.

/** What the status filter offers; each value matches what the list says about a request (worded by requests.filter.statusOption). */
export const REQUEST_STATUS_FILTERS = ['pending', 'unknown', 'booked', 'cancelled', 'failed'] as const;
export type RequestStatusFilter = (typeof REQUEST_STATUS_FILTERS)[number];

export const REQUESTS_SEARCH_MAX_LENGTH = 100;
export const REQUESTS_PAGE_SIZE_DEFAULT = 50;
export const REQUESTS_PAGE_SIZE_MAX = 200;

/** The filters of one list; absent ones are left out (an empty filter means "any"). */
export interface RequestFilters {
  deviceId?: string;
  status?: RequestStatusFilter;
  /** A resident's user id. */
  resident?: string;
  /** Days (YYYY-MM-DD), inclusive, of when the request was made. */
  from?: string;
  to?: string;
  /** Free text: resident name, apartment, room, who asked, note. */
  q?: string;
}

/** A page of the list: newest first, or the page older than / newer than a cursor. */
export type RequestsPage = { before: string } | { after: string } | Record<string, never>;

const ORDER: (keyof RequestFilters)[] = ['deviceId', 'status', 'resident', 'from', 'to', 'q'];

/** The search part of /requests and /api/requests ("" or "?status=failed&q=berg"), in a fixed order. */
export function requestsSearch(filters: RequestFilters, page: RequestsPage = {}, limit?: number): string {
  const params = new URLSearchParams();
  for (const name of ORDER) {
    const value = filters[name];
    if (value) params.set(name, value);
  }
  if ('before' in page) params.set('before', page.before);
  if ('after' in page) params.set('after', page.after);
  if (limit !== undefined) params.set('limit', String(limit));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** True when any filter narrows the list. */
export function hasFilters(filters: RequestFilters): boolean {
  return ORDER.some((name) => Boolean(filters[name]));
}
