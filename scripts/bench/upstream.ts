// Direct calls to the standalone sandbox (as an integrator would make them), and the naive
// pass-through baseline: the week grid computed from a fresh paging of the upstream per request.
import { performance } from 'node:perf_hooks';
import { createOwnerLabeler, expandWeek, overlayReservations, weekFromKey, type StatefulSlot } from '@/lib/schedule';
import type { SandboxFixtures } from '@/sandbox';
import { timedGet, type TimedAnswer } from './http';

interface Reservation {
  id: string;
  resourceId: string;
  userId: string | null;
  ownerId: string | null;
  ownerType: 'User' | 'Group' | 'Service';
  status: 'Used' | 'Unused';
  startTime: string;
  endTime: string;
}
interface Resource { id: string; name: string; timeScheduleId: string }
interface TimeSchedule { id: string; scheduleType: 'Week'; schedule: number[][][] }
interface UserGroup { id: string; name: string; apartmentId: string }

export const COLLECTIONS = {
  reservations: { path: (d: string) => `/v1/reservations/${d}/all`, field: 'reservations' },
  resources: { path: (d: string) => `/v1/reservations/resources/${d}/all`, field: 'resources' },
  timeSchedules: { path: (d: string) => `/v1/reservations/timeschedules/${d}/all`, field: 'timeSchedules' },
  userGroups: { path: (d: string) => `/v1/usergroups/${d}/all`, field: 'userGroups' },
} as const;
export type Collection = keyof typeof COLLECTIONS;

/** An integrator's client of the sandbox: one token, one API key, keep-alive HTTP. */
export class DirectClient {
  private token = '';
  apiKey = '';
  /** Duration of every page request made through all(), in ms. */
  readonly pageTimes: number[] = [];
  constructor(
    readonly baseUrl: string,
    readonly fixtures: SandboxFixtures,
  ) {}

  async connect(approvalId: string): Promise<void> {
    const f = this.fixtures;
    const tokenResponse = await fetch(`${this.baseUrl}${f.tokenPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: f.clientId, client_secret: f.clientSecret, scope: f.scope }).toString(),
    });
    if (!tokenResponse.ok) throw new Error(`sandbox token endpoint answered ${tokenResponse.status}`);
    this.token = ((await tokenResponse.json()) as { access_token: string }).access_token;
    const keyResponse = await fetch(`${this.baseUrl}/v1/apikey/generate/${approvalId}`, { headers: { authorization: `Bearer ${this.token}` } });
    if (!keyResponse.ok) throw new Error(`sandbox apikey/generate answered ${keyResponse.status}`);
    this.apiKey = ((await keyResponse.json()) as { apiKey: string }).apiKey;
  }

  /** A GET timed by the bench's lean client (as the portal's answers are in (c)), the body unparsed. */
  async timed(path: string): Promise<TimedAnswer> {
    const answer = await timedGet(`${this.baseUrl}${path}`, { authorization: `Bearer ${this.token}`, 'x-api-key': this.apiKey });
    if (answer.status !== 200) throw new Error(`sandbox GET ${path.split('?')[0]} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return answer;
  }

  async get<T>(path: string): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, { headers: { authorization: `Bearer ${this.token}`, 'x-api-key': this.apiKey } });
    const text = await response.text();
    if (!response.ok) throw new Error(`sandbox GET ${path.split('?')[0]} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  /** One page of a collection (pageSize 100, the maximum). */
  page<T>(kind: Collection, deviceId: string, continuationToken?: string): Promise<{ items: T[]; continuationToken: string | null }> {
    const c = COLLECTIONS[kind];
    const query = new URLSearchParams({ pageSize: '100' });
    if (continuationToken) query.set('continuationToken', continuationToken);
    return this.get<Record<string, unknown>>(`${c.path(deviceId)}?${query.toString()}`).then((body) => ({
      items: body[c.field] as T[],
      continuationToken: (body.continuationToken as string | null) ?? null,
    }));
  }

  /** Every item of a collection, following continuation tokens one request after the other. */
  async all<T>(kind: Collection, deviceId: string): Promise<{ items: T[]; pages: number }> {
    const items: T[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const start = performance.now();
      const page = await this.page<T>(kind, deviceId, token);
      this.pageTimes.push(performance.now() - start);
      pages += 1;
      items.push(...page.items);
      token = page.continuationToken ?? undefined;
    } while (token);
    return { items, pages };
  }
}

/**
 * Round trip of one upstream page: `n` sequential requests for successive pages of reservations
 * at the maximum page size (the mirror's typical request). Returns each duration in ms.
 */
export async function measurePageRoundTrips(client: DirectClient, deviceId: string, n: number): Promise<number[]> {
  const durations: number[] = [];
  let token: string | undefined;
  for (let i = 0; i < n; i += 1) {
    const start = performance.now();
    const page = await client.page('reservations', deviceId, token);
    durations.push(performance.now() - start);
    token = page.continuationToken ?? undefined;
  }
  return durations;
}

/**
 * The naive pass-through: what a portal without a mirror must do for one week grid. Pages every
 * collection the grid needs from the upstream (as the mirror does, so the two compute from the
 * same data), then computes the slots with the same lib/schedule code as the portal.
 */
export async function naiveWeek(client: DirectClient, deviceId: string, resourceId: string, weekKey: string, timeZone: string): Promise<{ slots: StatefulSlot[]; pages: Record<Collection, number> }> {
  const resources = await client.all<Resource>('resources', deviceId);
  const schedules = await client.all<TimeSchedule>('timeSchedules', deviceId);
  const groups = await client.all<UserGroup>('userGroups', deviceId);
  const reservations = await client.all<Reservation>('reservations', deviceId);
  const resource = resources.items.find((r) => r.id === resourceId);
  const schedule = schedules.items.find((s) => s.id === resource?.timeScheduleId);
  if (!resource || !schedule) throw new Error('naive baseline: resource or schedule not found upstream');
  const week = weekFromKey(weekKey, timeZone);
  const mine = reservations.items.filter((r) => r.resourceId === resourceId);
  const slots = overlayReservations(expandWeek(schedule.schedule, week, timeZone), mine, {
    now: new Date(),
    resourceId,
    ownerLabel: createOwnerLabeler({ groups: groups.items }),
  });
  return { slots, pages: { resources: resources.pages, timeSchedules: schedules.pages, userGroups: groups.pages, reservations: reservations.pages } };
}
