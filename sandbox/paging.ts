import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Row, SandboxContext } from './context';
import { b64url } from './encoding';
import { badRequest, checkValue, json, problem } from './http';
import { ODD_TOKEN_PREFIX, shapeItems, withExtras } from './shapes';

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 100;

/**
 * A continuation token: the list, the system and the last seq sent, signed with the sandbox's key.
 * `nonce` makes another token for the same place (the 'endless' paging fault).
 */
function pageToken(ctx: SandboxContext, kind: string, deviceId: string, after: number, nonce?: string): string {
  const payload = b64url(Buffer.from(JSON.stringify({ k: kind, d: deviceId, a: after, ...(nonce ? { n: nonce } : {}) })));
  const mac = createHmac('sha256', ctx.credentials.signingKey).update(`page:${payload}`).digest();
  return `${payload}.${b64url(mac)}`;
}

function readPageToken(ctx: SandboxContext, token: string, kind: string, deviceId: string): number {
  const bad = () => badRequest('continuationToken is not valid for this list.');
  // An `oddTokens` prefix is accepted back (also after the switch is cleared) when it arrives intact.
  const real = token.startsWith(ODD_TOKEN_PREFIX) ? token.slice(ODD_TOKEN_PREFIX.length) : token;
  const [payload, mac, extra] = real.split('.');
  if (!payload || !mac || extra !== undefined) throw bad();
  const expected = createHmac('sha256', ctx.credentials.signingKey).update(`page:${payload}`).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const p = parsed as { k?: unknown; d?: unknown; a?: unknown };
  if (p.k !== kind || p.d !== deviceId || typeof p.a !== 'number') throw bad();
  return p.a;
}

function pageParams(url: URL): { pageSize: number; token: string | null } {
  const raw = url.searchParams.get('pageSize');
  let pageSize = PAGE_SIZE_DEFAULT;
  if (raw !== null) {
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > PAGE_SIZE_MAX) {
      throw badRequest(`pageSize must be an integer from 1 to ${PAGE_SIZE_MAX}.`);
    }
    pageSize = Number(raw);
  }
  const token = url.searchParams.get('continuationToken');
  if (token === '') throw badRequest('continuationToken must not be empty.');
  if (token !== null) checkValue('continuationToken', token);
  return { pageSize, token };
}

/** The request's path and query, as the `extraFields` shape links it. */
export const href = (url: URL) => url.pathname + url.search;

export interface PageSpec {
  /** The list's name in its continuation tokens. */
  kind: string;
  table: string;
  /** The answer's array member. */
  field: string;
  deviceId: string;
  select: string;
  map: (row: Row) => Row;
  perItem?: (item: Row, index: number) => Row;
  /** Rows the page leaves out (a shape); the continuation goes on past them. */
  leaveOut?: (row: Row) => boolean;
}

/** One page of a system's list, in seq order, with its continuation token and shapes. */
export async function page(ctx: SandboxContext, url: URL, spec: PageSpec): Promise<Response> {
  const { kind, table, field, deviceId, select, map, perItem, leaveOut } = spec;
  const shapes = ctx.faults.shapes;
  const { pageSize, token } = pageParams(url);
  // pageFailure: this page answers an error however often it is asked for, until its statuses run out.
  const failure = ctx.faults.pageFailure(kind, deviceId, token?.startsWith(ODD_TOKEN_PREFIX) ? token.slice(ODD_TOKEN_PREFIX.length) : token);
  if (failure) {
    const headers: Record<string, string> = failure.retryAfter !== undefined ? { 'retry-after': String(failure.retryAfter) } : {};
    return problem(failure.status, failure.status === 429 ? 'Too Many Requests' : 'Injected Fault', 'Injected by the sandbox fault settings (pageFailure).', headers);
  }
  // shortPages: a page shorter than asked for, though more items follow.
  const size = Math.min(shapes.shortPages ? Math.ceil(pageSize / 2) : pageSize, shapes.maxPageItems ?? pageSize);
  const after = token === null ? 0 : readPageToken(ctx, token, kind, deviceId.toLowerCase());
  const { rows } = await ctx.sql.query(
    `SELECT ${select}, seq::text AS seq_text FROM ${table} WHERE device_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [deviceId, after, size + 1],
  );
  const items = rows.slice(0, size);
  const last = items[items.length - 1];
  let real = rows.length > size && last ? pageToken(ctx, kind, deviceId.toLowerCase(), Number(last.seq_text)) : null;
  // The paging fault: at the real end, a continuation that never ends (every item was sent).
  const paging = ctx.faults.faults.paging;
  if (real === null && paging && (!paging.list || paging.list === kind)) {
    const end = last ? Number(last.seq_text) : after;
    const realToken = token?.startsWith(ODD_TOKEN_PREFIX) ? token.slice(ODD_TOKEN_PREFIX.length) : token;
    real = paging.mode === 'repeat' ? (items.length === 0 && realToken ? realToken : pageToken(ctx, kind, deviceId.toLowerCase(), end)) : pageToken(ctx, kind, deviceId.toLowerCase(), end, randomUUID());
  }
  const next = real !== null && shapes.oddTokens ? ODD_TOKEN_PREFIX + real : real;
  const sent = leaveOut ? items.filter((row) => !leaveOut(row)) : items;
  return json(withExtras({ [field]: shapeItems(sent.map(map), shapes, href(url), perItem), continuationToken: next }, shapes, href(url)));
}
