import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createUser, setManagerSystems } from '@/lib/auth/users';
import type { SessionUser } from '@/lib/auth/schemas';
import { handleApiError } from '@/lib/errors/api-error';
import { InProcessEventBus, listenForAccessNotices } from '@/lib/events/bus';
import { appendRequestEvent } from '@/lib/events/store';
import type { PortalEvent, RequestView } from '@/lib/events/types';
import { createTokenRateLimiter } from '@/lib/http/rate-limit';
import { storeConnection } from '@/lib/systems/store';
import { describeWithDb } from '@/tests/db';
import { pendingRequestView } from '@/tests/request-views';
import { SseReader } from '@/tests/sse-reader';
import { createDisplay, revokeDisplay, rotateDisplay, updateDisplay } from './displays';
import { displayPageVersion } from './serve';
import { createDisplayStreamCaps, displayEventsResponse, displaySelects, type DisplayStreamCaps, type DisplayStreamDeps } from './stream';

const PORTAL = 'http://192.168.1.20:3000';
// The stream has read the latest id and follows the bus (a timed-out read would drop a chunk: wait instead).
const settled = () => new Promise((resolve) => setTimeout(resolve, 300));

describeWithDb('a display’s own event stream', (ctx) => {
  let manager: SessionUser;
  let deviceId: string;
  let otherDeviceId: string;
  let bus: InProcessEventBus;
  let caps: DisplayStreamCaps;
  let stopListening: () => Promise<void>;
  const db = () => ctx().handle.db;
  const open: AbortController[] = [];

  beforeAll(async () => {
    deviceId = randomUUID();
    otherDeviceId = randomUUID();
    await storeConnection(db(), { approvalId: randomUUID(), apiKey: 'key', deviceIds: [deviceId], encryptionKey: randomBytes(32) });
    await storeConnection(db(), { approvalId: randomUUID(), apiKey: 'other-key', deviceIds: [otherDeviceId], encryptionKey: randomBytes(32) });
    manager = await createUser(db(), { email: `m-${randomUUID()}@example.com`, name: 'Mona Manager', role: 'manager', passwordHash: 'x' });
    await setManagerSystems(db(), manager.id, [deviceId]);
    // The real path of a revoke's notice: the database's access channel to the bus.
    stopListening = await listenForAccessNotices(ctx().handle, (key) => bus.announceAccessChange(key));
  });

  afterAll(async () => {
    for (const controller of open) controller.abort();
    await stopListening();
  });

  beforeEach(() => {
    bus = new InProcessEventBus();
    caps = createDisplayStreamCaps({ perDisplayAndAddress: 3, perAddress: 5 });
  });

  const deps = (over: Partial<DisplayStreamDeps> = {}): DisplayStreamDeps => ({
    db: db(),
    source: () => Promise.reject(new Error('the stream reads no mirror')),
    freshnessMs: 3_600_000,
    limiter: createTokenRateLimiter('display', { perToken: { points: 1000, duration: 60 }, perAddress: { points: 1000, duration: 60 } }),
    bus,
    caps,
    recheckMs: 60_000,
    ...over,
  });
  const create = async (input: { resourceIds?: string[] } = {}) => {
    const { display, url } = await createDisplay(db(), { user: manager, input: { deviceId, name: 'Entré', ...input }, idempotencyKey: randomUUID(), portalUrl: PORTAL });
    return { display, token: url.slice(url.lastIndexOf('/') + 1) };
  };
  const stream = (token: string, init: { lastEventId?: number; address?: string; d?: DisplayStreamDeps; query?: string } = {}) => {
    const controller = new AbortController();
    open.push(controller);
    const request = new Request(`${PORTAL}/display/${token}/events${init.query ?? ''}`, {
      headers: init.lastEventId === undefined ? {} : { 'last-event-id': String(init.lastEventId) },
      signal: controller.signal,
    });
    const response = displayEventsResponse(init.d ?? deps(), request, token, init.address ?? '192.0.2.1').catch((e: unknown) => handleApiError(e, 'en'));
    return { response, controller };
  };
  const append = (view: RequestView): Promise<PortalEvent> => db().transaction((tx) => appendRequestEvent(tx, view));
  const named = (device: string, resourceId: string | null = null): RequestView => ({
    ...pendingRequestView(device),
    resourceId,
    residentName: 'Rita Resident',
    residentApartment: '1203',
    requestedByName: 'Mona Manager',
  });

  it('says "changed" with the event id for its system’s events, never what the event holds, and nothing of other systems', async () => {
    const { token } = await create();
    const { response } = stream(token);
    const res = await response;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const reader = new SseReader(res.body);
    await settled();
    const other = await append(named(otherDeviceId));
    bus.publish([other]);
    const mine = await append(named(deviceId));
    bus.publish([mine]);
    const frames = await reader.until((f) => f.some((x) => x.event === 'changed'));
    expect(frames.filter((f) => f.event === 'changed')).toEqual([{ event: 'changed', id: mine.id, data: '{}' }]);
    expect(JSON.stringify(frames)).not.toMatch(/Rita|Mona|1203/);
  });

  it('of a display of some rooms, lets through only what concerns its rooms (or no room in particular)', () => {
    const room = randomUUID();
    const select = displaySelects({ resourceIds: [room] })!;
    expect(select({ data: { resourceId: room } } as PortalEvent)).toBe(true);
    expect(select({ data: { resourceId: randomUUID() } } as PortalEvent)).toBe(false);
    expect(select({ data: { resourceId: null } } as PortalEvent)).toBe(true);
    expect(displaySelects({ resourceIds: null })).toBeUndefined();
  });

  it('catches up from Last-Event-ID: what changed while the screen was away comes first', async () => {
    const { token } = await create();
    const before = await append(named(deviceId));
    const missed = await append(named(deviceId));
    const reader = new SseReader((await stream(token, { lastEventId: before.id }).response).body);
    const frames = await reader.until((f) => f.some((x) => x.event === 'changed'));
    expect(frames.filter((f) => f.event === 'changed').map((f) => f.id)).toEqual([missed.id]);
  });

  it('ends with "switched-off" within a second of a revoke (the notice, not the periodic check)', async () => {
    const { display, token } = await create();
    const reader = new SseReader((await stream(token).response).body);
    await settled();
    const started = Date.now();
    await revokeDisplay(db(), { user: manager, displayId: display.id });
    await reader.until(() => reader.endReason() !== undefined, 3_000);
    expect(reader.endReason()).toBe('switched-off');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(caps.open().streams).toBe(0);
    // And a new stream of the revoked address is refused with "switched off".
    const again = await stream(token).response;
    expect(again.status).toBe(410);
    expect(await again.json()).toMatchObject({ error: { code: 'gone', message: 'Den här skärmen har stängts av.' } });
  });

  it('ends with "switched-off" when its address is rotated away, by the notice or else by the periodic check', async () => {
    const first = await create();
    const noticed = new SseReader((await stream(first.token).response).body);
    await rotateDisplay(db(), { user: manager, displayId: first.display.id, portalUrl: PORTAL });
    await noticed.until(() => noticed.endReason() !== undefined, 3_000);
    expect(noticed.endReason()).toBe('switched-off');

    // Without the notice (another bus hears nothing of it), the backstop finds it.
    const second = await create();
    const quietBus = new InProcessEventBus();
    const checked = new SseReader((await stream(second.token, { d: deps({ bus: quietBus, recheckMs: 200 }) }).response).body);
    await settled();
    await rotateDisplay(db(), { user: manager, displayId: second.display.id, portalUrl: PORTAL });
    await checked.until(() => checked.endReason() !== undefined, 3_000);
    expect(checked.endReason()).toBe('switched-off');
  });

  it('ends with "reload" when the display is renamed or given another language (the page holds them), not when its apartment setting changes', async () => {
    const { display, token } = await create();
    const renamed = new SseReader((await stream(token).response).body);
    await settled();
    // Apartment numbers are in the rooms the screen reads, not in the page: the stream goes on.
    await updateDisplay(db(), { user: manager, displayId: display.id, input: { showApartments: true } });
    // (Open streams counted, not frames read: a read that times out would lose the next frame.)
    await settled();
    expect(caps.open().streams).toBe(1);
    const started = Date.now();
    await updateDisplay(db(), { user: manager, displayId: display.id, input: { name: 'Entré B' } });
    await renamed.until(() => renamed.endReason() !== undefined, 3_000);
    expect(renamed.endReason()).toBe('reload');
    expect(Date.now() - started).toBeLessThan(2_000);

    // A stream opened since has the new name; another language ends it as well.
    const relanguaged = new SseReader((await stream(token).response).body);
    await settled();
    await updateDisplay(db(), { user: manager, displayId: display.id, input: { locale: 'en' } });
    await relanguaged.until(() => relanguaged.endReason() !== undefined, 3_000);
    expect(relanguaged.endReason()).toBe('reload');

    // A page rendered before a change, whose stream opened after it, is told at once; a current one is not.
    const stale = new SseReader((await stream(token, { query: `?v=${displayPageVersion({ name: 'Entré B', locale: 'sv' })}` }).response).body);
    await stale.until(() => stale.endReason() !== undefined, 3_000);
    expect(stale.endReason()).toBe('reload');
    expect((await stream(token, { query: `?v=${displayPageVersion({ name: 'Entré B', locale: 'en' })}` }).response).status).toBe(200);
    await settled();
    expect(caps.open().streams).toBe(1);
  });

  it('holds at most 3 open streams per display from one address and 5 per address (429 with a sentence), and a closed one frees its place', async () => {
    const { token } = await create();
    const streams = [stream(token), stream(token), stream(token)];
    for (const s of streams) expect((await s.response).status).toBe(200);
    const fourth = await stream(token).response;
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBe('30');
    expect(((await fourth.json()) as { error: { message: string } }).error.message).toBe(
      'This display already has as many live connections from this address as it may have open at once. Try again in 30 seconds.',
    );
    // Another display from the same address: two more, then the address is full.
    const other = await create();
    expect((await stream(other.token).response).status).toBe(200);
    expect((await stream(other.token).response).status).toBe(200);
    expect((await stream(other.token).response).status).toBe(429);
    // From elsewhere, that display still has room.
    expect((await stream(other.token, { address: '198.51.100.7' }).response).status).toBe(200);

    streams[0]!.controller.abort();
    await expect.poll(() => caps.open().streams).toBe(5);
    expect((await stream(token).response).status).toBe(200);
  });

  it('three foreign holders of its address cannot take the real screen’s live stream (issue 47)', async () => {
    const { token } = await create();
    // Whoever read the address off the wall, from three places, each holding all it may.
    for (const foreign of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      for (let i = 0; i < 3; i += 1) expect((await stream(token, { address: foreign }).response).status).toBe(200);
      expect((await stream(token, { address: foreign }).response).status).toBe(429);
    }
    // The screen on the wall still gets its stream, and hears a change.
    const screen = await stream(token, { address: '192.0.2.50' }).response;
    expect(screen.status).toBe(200);
    const reader = new SseReader(screen.body);
    await settled();
    const event = await append(named(deviceId));
    bus.publish([event]);
    const frames = await reader.until((f) => f.some((x) => x.event === 'changed'));
    expect(frames.filter((f) => f.event === 'changed').map((f) => f.id)).toEqual([event.id]);
  });

  it('counts against the display’s rate limits, and answers 404 for an address that never was a display', async () => {
    const { token } = await create();
    const limited = deps({ limiter: createTokenRateLimiter('display', { perToken: { points: 1, duration: 60 }, perAddress: { points: 100, duration: 60 } }) });
    expect((await stream(token, { d: limited }).response).status).toBe(200);
    const refused = await stream(token, { d: limited }).response;
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await stream('A'.repeat(43)).response).status).toBe(404);
  });
});
