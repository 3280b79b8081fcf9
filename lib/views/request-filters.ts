import 'server-only';
import { TZDate } from '@date-fns/tz';
import { ApiError } from '@/lib/errors/api-error';
import { msg, type Message } from '@/lib/i18n/message';
import {
  REQUEST_STATUS_FILTERS,
  REQUESTS_PAGE_SIZE_DEFAULT,
  REQUESTS_PAGE_SIZE_MAX,
  REQUESTS_SEARCH_MAX_LENGTH,
  type RequestFilters,
  type RequestStatusFilter,
} from '@/lib/client/request-filters';
import { hasControlCharacters } from '@/lib/http/control-characters';

/** Where a page starts: after (older than) or before (newer than) one request, by its time and id. */
export interface RequestCursor {
  /** created_at to the microsecond, as PostgreSQL holds it (a JS Date would lose the last three digits). */
  at: string;
  id: string;
}

export interface RequestsQuery {
  filters: RequestFilters;
  before?: RequestCursor;
  after?: RequestCursor;
  limit: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_([0-9a-f-]{36})$/i;
type ParamName = keyof RequestFilters | 'before' | 'after' | 'limit';

const bad = (message: Message) => new ApiError('bad_request', message);

/** A cursor as the URL carries it: "2026-11-23T17:02:03.123456Z_<request id>". */
export function formatCursor(cursor: RequestCursor): string {
  return `${cursor.at}_${cursor.id}`;
}

function parseCursor(value: string, name: string): RequestCursor {
  const match = CURSOR.exec(value);
  if (!match?.[1] || !match[2] || !UUID.test(match[2]) || !Number.isFinite(Date.parse(match[1]))) {
    throw bad(msg('errors.filterBadCursor', { name }));
  }
  return { at: match[1], id: match[2].toLowerCase() };
}

function parseDay(value: string, name: 'from' | 'to'): string {
  const match = DAY.exec(value);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (!match || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || year < 2000) {
    throw bad(msg('errors.filterBadDay', { name }));
  }
  return value;
}

/**
 * The Requests page's and GET /api/requests' search parameters, checked: anything malformed is an
 * ApiError 400 whose sentence says what is wrong (never silently ignored). Empty values mean "any".
 */
export function parseRequestsQuery(params: URLSearchParams): RequestsQuery {
  const one = (name: ParamName): string | undefined => {
    const values = params.getAll(name);
    if (values.length > 1) throw bad(msg('errors.filterRepeated', { name, count: values.length }));
    const value = values[0]?.trim();
    return value ? value : undefined;
  };
  const filters: RequestFilters = {};
  const deviceId = one('deviceId');
  if (deviceId !== undefined) {
    if (!UUID.test(deviceId)) throw bad(msg('errors.filterBadSystem'));
    filters.deviceId = deviceId.toLowerCase();
  }
  const status = one('status');
  if (status !== undefined) {
    if (!(REQUEST_STATUS_FILTERS as readonly string[]).includes(status)) {
      throw bad(msg('errors.filterBadStatus', { status: status.slice(0, 40), allowed: REQUEST_STATUS_FILTERS.join(', ') }));
    }
    filters.status = status as RequestStatusFilter;
  }
  const resident = one('resident');
  if (resident !== undefined) {
    if (!UUID.test(resident)) throw bad(msg('errors.filterBadResident'));
    filters.resident = resident.toLowerCase();
  }
  const from = one('from');
  if (from !== undefined) filters.from = parseDay(from, 'from');
  const to = one('to');
  if (to !== undefined) filters.to = parseDay(to, 'to');
  if (filters.from && filters.to && filters.from > filters.to) throw bad(msg('errors.filterFromAfterTo'));
  const q = one('q');
  if (q !== undefined) {
    if (q.length > REQUESTS_SEARCH_MAX_LENGTH) throw bad(msg('errors.searchTooLong', { max: REQUESTS_SEARCH_MAX_LENGTH }));
    if (hasControlCharacters(q)) throw bad(msg('errors.searchControlCharacters'));
    filters.q = q;
  }
  const before = one('before');
  const after = one('after');
  if (before !== undefined && after !== undefined) throw bad(msg('errors.filterBeforeAndAfter'));
  const limitText = one('limit');
  let limit = REQUESTS_PAGE_SIZE_DEFAULT;
  if (limitText !== undefined) {
    limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= REQUESTS_PAGE_SIZE_MAX)) throw bad(msg('errors.filterBadLimit', { max: REQUESTS_PAGE_SIZE_MAX }));
  }
  return {
    filters,
    ...(before !== undefined ? { before: parseCursor(before, 'before') } : {}),
    ...(after !== undefined ? { after: parseCursor(after, 'after') } : {}),
    limit,
  };
}

/** A page's search parameters as Next hands them to a page component. */
export function toSearchParams(raw: Record<string, string | string[] | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(raw)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(name, v);
  }
  return params;
}

/** The instants [from, to) of the inclusive day range, with days as in `timeZone`. */
export function dayRange(filters: Pick<RequestFilters, 'from' | 'to'>, timeZone: string): { since?: Date; until?: Date } {
  const midnight = (day: string, plusDays: number) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    return new Date(new TZDate(y, m - 1, d + plusDays, timeZone).getTime());
  };
  return {
    ...(filters.from ? { since: midnight(filters.from, 0) } : {}),
    ...(filters.to ? { until: midnight(filters.to, 1) } : {}),
  };
}
