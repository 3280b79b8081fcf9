import { msg, type Message } from '@/lib/i18n/message';

/**
 * The systems list's search, grouping, filters and page as they stand in the address (issue 49):
 * pure and browser-safe, so the page, its API route and the browser's controls read and write the
 * same URL (shareable; the back button steps through it).
 */

export const SYSTEM_LIST_GROUPS = ['none', 'area', 'city'] as const;
export type SystemListGroup = (typeof SYSTEM_LIST_GROUPS)[number];
export const SYSTEM_LIST_FILTERS = ['free', 'incomplete', 'notLoaded'] as const;
export type SystemListFilter = (typeof SYSTEM_LIST_FILTERS)[number];
export const SYSTEM_LIST_PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_SYSTEM_LIST_PAGE_SIZE = 25;
export const SYSTEM_LIST_QUERY_MAX = 100;
export const SYSTEM_LIST_AREA_MAX = 120;
const PAGE_MAX = 100_000;

export interface SystemListParams {
  /** What was typed (trimmed); each word must match the name, street, city, area or a room's name. */
  q: string;
  group: SystemListGroup;
  /** One area exactly; null: every area. */
  area: string | null;
  filters: SystemListFilter[];
  page: number;
  size: number;
}

export const DEFAULT_SYSTEM_LIST_PARAMS: SystemListParams = { q: '', group: 'none', area: null, filters: [], page: 1, size: DEFAULT_SYSTEM_LIST_PAGE_SIZE };

export type SystemListParamsResult = { ok: true; params: SystemListParams } | { ok: false; problem: Message };

type Query = URLSearchParams | Record<string, string | string[] | undefined>;

function all(query: Query, key: string): string[] {
  if (query instanceof URLSearchParams) return query.getAll(key);
  const value = query[key];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The list's parameters from the address, or the sentence saying which one is wrong. */
export function parseSystemListParams(query: Query): SystemListParamsResult {
  const one = (key: string): string | undefined => {
    const values = all(query, key);
    return values.length === 0 ? undefined : values[values.length - 1];
  };
  const q = (one('q') ?? '').trim();
  if (q.length > SYSTEM_LIST_QUERY_MAX) return { ok: false, problem: msg('systemList.invalid.query', { max: SYSTEM_LIST_QUERY_MAX }) };
  if (CONTROL.test(q)) return { ok: false, problem: msg('systemList.invalid.control') };
  const group = one('group') ?? 'none';
  if (!(SYSTEM_LIST_GROUPS as readonly string[]).includes(group)) return { ok: false, problem: msg('systemList.invalid.group', { input: group.slice(0, 40) }) };
  const area = (one('area') ?? '').trim();
  if (area.length > SYSTEM_LIST_AREA_MAX || CONTROL.test(area)) return { ok: false, problem: msg('systemList.invalid.area', { max: SYSTEM_LIST_AREA_MAX }) };
  const filters: SystemListFilter[] = [];
  for (const raw of all(query, 'filter').flatMap((v) => v.split(','))) {
    const value = raw.trim();
    if (value === '') continue;
    if (!(SYSTEM_LIST_FILTERS as readonly string[]).includes(value)) return { ok: false, problem: msg('systemList.invalid.filter', { input: value.slice(0, 40) }) };
    if (!filters.includes(value as SystemListFilter)) filters.push(value as SystemListFilter);
  }
  const page = wholeNumber(one('page'), 1);
  if (page === null || page < 1 || page > PAGE_MAX) return { ok: false, problem: msg('systemList.invalid.page', { max: PAGE_MAX }) };
  const size = wholeNumber(one('size'), DEFAULT_SYSTEM_LIST_PAGE_SIZE);
  if (size === null || !(SYSTEM_LIST_PAGE_SIZES as readonly number[]).includes(size)) {
    return { ok: false, problem: msg('systemList.invalid.size', { sizes: SYSTEM_LIST_PAGE_SIZES.join(', ') }) };
  }
  // Filters in a fixed order, so one list has one address.
  filters.sort((a, b) => SYSTEM_LIST_FILTERS.indexOf(a) - SYSTEM_LIST_FILTERS.indexOf(b));
  return { ok: true, params: { q, group: group as SystemListGroup, area: area === '' ? null : area, filters, page, size } };
}

/** Digits only ("0x10", "1e1", "2.5" are not page numbers); undefined or empty: the default. */
function wholeNumber(value: string | undefined, fallback: number): number | null {
  if (value === undefined || value === '') return fallback;
  return /^\d{1,9}$/.test(value) ? Number(value) : null;
}

/** Whether the address names any list parameter at all (the API's old callers name none). */
export function hasSystemListParams(query: URLSearchParams): boolean {
  return ['q', 'group', 'area', 'filter', 'page', 'size'].some((key) => query.has(key));
}

/** The query string of a list (defaults left out), with `changes` applied; a change other than the page goes back to page 1. */
export function systemListQuery(params: SystemListParams, changes: Partial<SystemListParams> = {}): string {
  const next = { ...params, ...changes };
  if (changes.page === undefined && Object.keys(changes).length > 0) next.page = 1;
  const out = new URLSearchParams();
  if (next.q) out.set('q', next.q);
  if (next.group !== 'none') out.set('group', next.group);
  if (next.area) out.set('area', next.area);
  if (next.filters.length > 0) out.set('filter', [...next.filters].sort((a, b) => SYSTEM_LIST_FILTERS.indexOf(a) - SYSTEM_LIST_FILTERS.indexOf(b)).join(','));
  if (next.page !== 1) out.set('page', String(next.page));
  if (next.size !== DEFAULT_SYSTEM_LIST_PAGE_SIZE) out.set('size', String(next.size));
  const text = out.toString();
  return text ? `?${text}` : '';
}
