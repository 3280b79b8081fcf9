/**
 * What the sandbox served, counted for GET /_sandbox/stats: every request to the service's own
 * routes (token endpoint and /v1, not /_sandbox), by route template and by system, so that a
 * benchmark can see the cost a portal puts on the service. `firstPages` counts list requests
 * without a continuation token: the start of a full paging of that list.
 */

export interface RouteCount {
  requests: number;
  /** Requests of a paged list that asked for its first page (no continuationToken). */
  firstPages: number;
  /** Answers with a status of 400 or more (injected faults included). */
  errors: number;
}

export interface RequestStatsView {
  /** When counting started (the sandbox's start, or the last DELETE /_sandbox/stats). */
  since: string;
  total: number;
  byRoute: Record<string, RouteCount>;
  /** Per system (the `deviceId` of the path), by route; requests naming no system are not listed here. */
  byDevice: Record<string, { requests: number; byRoute: Record<string, RouteCount> }>;
}

/** Systems counted one by one; beyond this many, further ids are counted together (any id may be sent). */
export const STATS_MAX_DEVICES = 1_000;
export const OTHER_DEVICES = '(other)';

const emptyCount = (): RouteCount => ({ requests: 0, firstPages: 0, errors: 0 });

function add(counts: Record<string, RouteCount>, template: string, firstPage: boolean, error: boolean): void {
  const count = (counts[template] ??= emptyCount());
  count.requests += 1;
  if (firstPage) count.firstPages += 1;
  if (error) count.errors += 1;
}

export class RequestStats {
  private since: Date;
  private total = 0;
  private byRoute: Record<string, RouteCount> = {};
  private byDevice = new Map<string, { requests: number; byRoute: Record<string, RouteCount> }>();

  constructor(private readonly now: () => Date) {
    this.since = now();
  }

  /** One request served: its route template (`GET /v1/reservations/{deviceId}/all`), system and status. */
  record(request: { template: string; deviceId: string | null; firstPage: boolean; status: number }): void {
    const error = request.status >= 400;
    this.total += 1;
    add(this.byRoute, request.template, request.firstPage, error);
    if (request.deviceId === null) return;
    const key = this.byDevice.has(request.deviceId) || this.byDevice.size < STATS_MAX_DEVICES ? request.deviceId : OTHER_DEVICES;
    let device = this.byDevice.get(key);
    if (!device) {
      device = { requests: 0, byRoute: {} };
      this.byDevice.set(key, device);
    }
    device.requests += 1;
    add(device.byRoute, request.template, request.firstPage, error);
  }

  reset(): void {
    this.since = this.now();
    this.total = 0;
    this.byRoute = {};
    this.byDevice.clear();
  }

  view(): RequestStatsView {
    return {
      since: this.since.toISOString(),
      total: this.total,
      byRoute: structuredClone(this.byRoute),
      byDevice: Object.fromEntries([...this.byDevice].map(([id, d]) => [id, structuredClone(d)])),
    };
  }
}
