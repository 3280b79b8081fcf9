import { z } from 'zod';

/**
 * What a real service may send that the interface allows (service-notes.md part C). Each switch
 * changes only the wire form of answers; the data, and what the sandbox accepts, stay the same.
 * "Index" is an item's position in the array as sent (after `shuffle` and `shortPages`).
 */
export const shapesSchema = z
  .object({
    /** Display-only fields null on items with index % 3 === 2: resources name and description; user groups
     *  name, apartmentId and referenceId; user accounts (lookups, users/fetch) name and email. */
    nullLabels: z.boolean().optional(),
    /** The same fields on the same items omitted (key absent); wins over nullLabels. */
    missingOptional: z.boolean().optional(),
    /** The same fields as empty strings, on items with index % 3 === 1 (so it combines with the two above). */
    emptyLabels: z.boolean().optional(),
    /** Every date-time sent (reservation times, the 202 timestamp, the webhook timestamp) without seconds:
     *  `2026-11-24T07:00Z` (an instant with seconds is truncated to its minute). */
    minuteTimes: z.boolean().optional(),
    /** The same date-times at +01:00 for the same instant: `2026-11-24T08:00:00+01:00`. */
    offsetTimes: z.boolean().optional(),
    /** Seven fractional digits like .NET: `2026-11-24T07:00:00.0000000Z` (ignored with minuteTimes). */
    fractionTimes: z.boolean().optional(),
    /** Reservations with index % 5 === 4 (list pages, users/{userId}/reservations): ownerType 'Facility', status 'Released'. */
    unknownEnums: z.boolean().optional(),
    /** Time schedules with index % 2 === 1: scheduleType 'Custom' and a schedule object of another structure. */
    unknownScheduleType: z.boolean().optional(),
    /** Unknown members (`etag`, `_links`, `tenantRef: null`) on every item and envelope: pages, lookups, the 202
     *  body and the webhook envelope and its eventData. */
    extraFields: z.boolean().optional(),
    /** Items of every page, lookup and reservation array in reverse order. */
    shuffle: z.boolean().optional(),
    /** List pages hold at most ceil(pageSize / 2) items; continuation stays complete. */
    shortPages: z.boolean().optional(),
    /** List pages hold at most this many items, whatever pageSize asks (a service's own cap); combines with shortPages. */
    maxPageItems: z.number().int().min(1).max(100).optional(),
    /** Continuation tokens start with ODD_TOKEN_PREFIX (URL-unsafe characters); accepted back percent-encoded. */
    oddTokens: z.boolean().optional(),
    /** The success status of create and cancel (same body); default 202. */
    acceptStatus: z.union([z.literal(200), z.literal(201), z.literal(202)]).optional(),
    /**
     * Every GUID sent (item ids and the ids they name, `timeScheduleId`, `reservationResources`, the
     * apikey answer's systems, the 202's correlation id, the webhook's correlation and reservation
     * ids) in upper case (`3F1C2A9E-…`, as SQL Server writes them) or in mixed case (every other hex letter upper).
     */
    idCase: z.enum(['upper', 'mixed']).optional(),
    /** The same GUIDs in braces, .NET's "B" form (`{3f1c2a9e-…}`); combines with idCase. */
    bracedIds: z.boolean().optional(),
    /**
     * The time-schedule list leaves out the schedule of each system's last room (and so of every room
     * sharing it): the room names a schedule the service does not list. Bookings there are still
     * judged by the real schedule.
     */
    unlistedSchedule: z.boolean().optional(),
  })
  .strict();
export type Shapes = z.infer<typeof shapesSchema>;

/**
 * Create (POST /v1/reservations) and cancel (DELETE /v1/reservations/{id}) are accepted and recorded as
 * usual (processed, webhook delivered), then the HTTP answer is spoiled:
 * 'delay' sends the normal answer after delayMs; 'unreadable' a 2xx application/json body that is not JSON;
 * 'status' a 5xx problem+json; 'reset' breaks the connection before any byte of the answer.
 */
export const afterAcceptSchema = z
  .object({
    mode: z.enum(['delay', 'unreadable', 'status', 'reset']),
    delayMs: z.number().int().min(0).max(600_000).optional(),
    status: z.number().int().min(500).max(599).optional(),
    method: z.enum(['POST', 'DELETE']).optional(),
    /** Only the first N matching requests (default all). */
    times: z.number().int().min(1).optional(),
  })
  .strict();
export type AfterAccept = z.infer<typeof afterAcceptSchema>;
export const AFTER_ACCEPT_DEFAULT_DELAY_MS = 30_000;

/** Injected faults; PUT /_sandbox/faults replaces the whole set. */
export const faultsSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(120_000).optional(),
    latencyJitterMs: z.number().int().min(0).max(120_000).optional(),
    errorRate: z.number().min(0).max(1).optional(),
    throttle: z.object({ rate: z.number().min(0).max(1), retryAfterSeconds: z.number().int().min(0).max(3600) }).strict().optional(),
    failures: z
      .array(
        z
          .object({
            status: z.number().int().min(400).max(599),
            times: z.number().int().min(1),
            skip: z.number().int().min(0).optional(),
            pathPrefix: z.string().optional(),
            method: z.string().optional(),
            retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
          })
          .strict(),
      )
      .max(50)
      .optional(),
    hang: z.object({ ms: z.number().int().min(0).max(600_000), pathPrefix: z.string().optional() }).strict().optional(),
    tokenEndpointDown: z.boolean().optional(),
    webhook: z
      .object({ delayMs: z.number().int().min(0).max(3_600_000).optional(), duplicate: z.boolean().optional(), reorder: z.boolean().optional() })
      .strict()
      .optional(),
    shapes: shapesSchema.optional(),
    afterAccept: afterAcceptSchema.optional(),
    /**
     * A list whose paging never completes, though every item is sent: at its real end, 'repeat'
     * sends a continuation token already given (the page asked for with it, or one naming that
     * same empty page), 'endless' a new token to another empty page every time. `list`: only that
     * list (reservations, resources, timeSchedules, userGroups); default every list.
     */
    paging: z
      .object({ mode: z.enum(['repeat', 'endless']), list: z.enum(['reservations', 'resources', 'timeSchedules', 'userGroups']).optional() })
      .strict()
      .optional(),
    /**
     * One page of one list that fails, whoever asks and however often: the `page`-th page (1: the
     * first, without a token; later pages counted by the distinct continuation tokens asked for since
     * the faults were set) answers the `statuses` in turn, one per request for it, then normally. For
     * a page failing more times than a client retries. `deviceId`: only that system's list.
     */
    pageFailure: z
      .object({
        list: z.enum(['reservations', 'resources', 'timeSchedules', 'userGroups']).default('reservations'),
        page: z.number().int().min(1),
        statuses: z.array(z.number().int().min(400).max(599)).min(1).max(50),
        deviceId: z.string().optional(),
        retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type Faults = z.infer<typeof faultsSchema>;

interface FailureCounter { seen: number }

/** Decides, per request, which injected fault applies. */
export class FaultState {
  faults: Faults = {};
  private counters: FailureCounter[] = [];
  private afterAcceptSeen = 0;
  // pageFailure: the page number of each continuation token seen, and the requests answered per page.
  private pageNumbers = new Map<string, number>();
  private pageFailuresSent = 0;

  constructor(private readonly random: () => number = Math.random) {}

  set(faults: Faults): void {
    this.faults = faults;
    this.counters = (faults.failures ?? []).map(() => ({ seen: 0 }));
    this.afterAcceptSeen = 0;
    this.pageNumbers = new Map();
    this.pageFailuresSent = 0;
  }

  /**
   * The status (and Retry-After) the pageFailure fault answers a request for a list page with, if
   * any: `token` is the continuation token asked with (null: the first page), without an
   * `oddTokens` prefix.
   */
  pageFailure(list: string, deviceId: string, token: string | null): { status: number; retryAfter?: number } | undefined {
    const fault = this.faults.pageFailure;
    if (!fault || fault.list !== list || (fault.deviceId && fault.deviceId.toLowerCase() !== deviceId.toLowerCase())) return undefined;
    let page = 1;
    if (token !== null) {
      page = this.pageNumbers.get(token) ?? this.pageNumbers.size + 2;
      this.pageNumbers.set(token, page);
    }
    if (page !== fault.page || this.pageFailuresSent >= fault.statuses.length) return undefined;
    const status = fault.statuses[this.pageFailuresSent++]!;
    return { status, retryAfter: fault.retryAfterSeconds };
  }

  get shapes(): Shapes {
    return this.faults.shapes ?? {};
  }

  /** The spoiling to apply to the answer of an accepted create/cancel, if any (counts it). */
  afterAccept(method: string): AfterAccept | undefined {
    const spoil = this.faults.afterAccept;
    if (!spoil || (spoil.method && spoil.method !== method.toUpperCase())) return undefined;
    const n = this.afterAcceptSeen++;
    return spoil.times === undefined || n < spoil.times ? spoil : undefined;
  }

  clear(): void {
    this.set({});
  }

  latency(): number {
    const base = this.faults.latencyMs ?? 0;
    const jitter = this.faults.latencyJitterMs ?? 0;
    return base + (jitter > 0 ? Math.floor(this.random() * (jitter + 1)) : 0);
  }

  hangMs(path: string): number {
    const hang = this.faults.hang;
    if (!hang || (hang.pathPrefix && !path.startsWith(hang.pathPrefix))) return 0;
    return hang.ms;
  }

  /** A status (and Retry-After) to answer instead of the real response, if any. */
  injectedFailure(method: string, path: string, isToken: boolean): { status: number; retryAfter?: number } | undefined {
    if (isToken && this.faults.tokenEndpointDown) return { status: 503 };
    const failures = this.faults.failures ?? [];
    for (let i = 0; i < failures.length; i++) {
      const f = failures[i]!;
      if (f.method && f.method.toUpperCase() !== method.toUpperCase()) continue;
      if (f.pathPrefix && !path.startsWith(f.pathPrefix)) continue;
      const counter = this.counters[i]!;
      const n = counter.seen++;
      const skip = f.skip ?? 0;
      if (n >= skip && n < skip + f.times) return { status: f.status, retryAfter: f.retryAfterSeconds };
    }
    if (isToken) return undefined;
    const throttle = this.faults.throttle;
    if (throttle && this.random() < throttle.rate) return { status: 429, retryAfter: throttle.retryAfterSeconds };
    if (this.faults.errorRate && this.random() < this.faults.errorRate) return { status: 503 };
    return undefined;
  }
}
