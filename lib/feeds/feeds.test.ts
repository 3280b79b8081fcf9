import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { handleApiError } from '@/lib/errors/api-error';
import { createUser, setManagerSystems } from '@/lib/auth/users';
import type { SessionUser } from '@/lib/auth/schemas';
import { calendarFeeds } from '@/lib/db/schema';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { applyReservationChange, readReservations, readReservationsOfApartment, readResources, readUsers } from '@/lib/mirror/store';
import { storeConnection } from '@/lib/systems/store';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { describeWithDb } from '@/tests/db';
import { summaryOf, veventsOf } from '@/tests/ical';
import { createFeed, listFeeds, revokeFeed, rotateFeed } from './feeds';
import { createTokenRateLimiter } from '@/lib/http/rate-limit';
import { feedResponse, type FeedDeps } from './serve';
import { feedTokenHash } from './token';

const PORTAL = 'https://portal.test';
const TZ = 'Europe/Stockholm';

describeWithDb('calendar feeds', (ctx) => {
  let connected: ConnectedSandbox;
  let admin: SessionUser;
  let manager: SessionUser;
  let otherManager: SessionUser;
  let otherDeviceId: string;
  let resourceId: string;
  const db = () => ctx().handle.db;

  beforeAll(async () => {
    connected = await startConnectedSandbox(db(), { sql: ctx().handle.sql, preset: 'demo', seed: 5 });
    const approval = connected.fixtures.approvals[0]!;
    await storeConnection(db(), { approvalId: approval.approvalId, apiKey: connected.apiKey, deviceIds: [connected.deviceId], encryptionKey: randomBytes(32) });
    // Another system, managed by someone else.
    otherDeviceId = randomUUID();
    await storeConnection(db(), { approvalId: randomUUID(), apiKey: 'other-key', deviceIds: [otherDeviceId], encryptionKey: randomBytes(32) });
    admin = await createUser(db(), { email: `admin-${randomUUID()}@example.com`, name: 'Ada Admin', role: 'admin', passwordHash: 'x' });
    manager = await createUser(db(), { email: `m-${randomUUID()}@example.com`, name: 'Mona Manager', role: 'manager', passwordHash: 'x' });
    otherManager = await createUser(db(), { email: `o-${randomUUID()}@example.com`, name: 'Otto Other', role: 'manager', passwordHash: 'x' });
    await setManagerSystems(db(), manager.id, [connected.deviceId]);
    await setManagerSystems(db(), otherManager.id, [otherDeviceId]);
    // The room with the most bookings, so the feed has several apartments in it.
    const all = await readReservations(db(), connected.deviceId, { from: new Date(Date.now() - 30 * 86_400_000), to: new Date(Date.now() + 60 * 86_400_000) });
    const counts = new Map<string, number>();
    for (const r of all) counts.set(r.resourceId, (counts.get(r.resourceId) ?? 0) + 1);
    resourceId = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  }, 120_000);

  afterAll(() => connected.stop());

  const deps = (over: Partial<FeedDeps> = {}): FeedDeps => ({
    db: db(),
    source: () => Promise.resolve(serviceMirrorSource(connected.client, connected.apiKey)),
    freshnessMs: 3_600_000,
    limiter: createTokenRateLimiter('feed', { perToken: { points: 1000, duration: 60 }, perAddress: { points: 1000, duration: 60 } }),
    ...over,
  });
  const fileOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  const read = (url: string, d: FeedDeps = deps(), address = '192.0.2.1') =>
    feedResponse(d, fileOf(url), address).catch((error: unknown) => handleApiError(error, 'en'));
  const roomFeed = (user: SessionUser = manager, locale: 'sv' | 'en' = 'en') =>
    createFeed(db(), { user, input: { deviceId: connected.deviceId, scope: 'room', resourceId }, locale, idempotencyKey: randomUUID(), portalUrl: PORTAL });

  it('serves a room feed as text/calendar with every booking and maintenance from 30 days back, titled by apartment, never a resident', async () => {
    const { feed, url } = await roomFeed();
    expect(url).toMatch(/^https:\/\/portal\.test\/feeds\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(feed).toMatchObject({ scope: 'room', resourceId, groupId: null, createdByName: 'Mona Manager', rotatedAt: null });
    const response = await read(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, max-age=300');
    const text = await response.text();
    const events = veventsOf(text);
    const now = Date.now();
    const expected = await readReservations(db(), connected.deviceId, { from: new Date(now - 30 * 86_400_000), to: new Date(now + 5 * 366 * 86_400_000), resourceId });
    expect(expected.length).toBeGreaterThan(3);
    expect(events.map((e) => e.uid).sort()).toEqual(expected.map((r) => `${r.id}@laundry-portal`).sort());
    const byUid = new Map(events.map((e) => [e.uid, e]));
    for (const r of expected) {
      const event = byUid.get(`${r.id}@laundry-portal`)!;
      expect(event.start.getTime()).toBe(Date.parse(r.startTime));
      expect(event.end?.getTime()).toBe(Date.parse(r.endTime));
      const summary = summaryOf(event);
      if (r.ownerType === 'Service') expect(summary).toBe('Maintenance');
      else expect(summary).toMatch(/^Booked( – apartment \S.*)?$/);
    }
    // Apartments are named where the mirror knows them.
    expect(events.some((e) => summaryOf(e).startsWith('Booked – apartment '))).toBe(true);
    expect(text).toContain('BEGIN:VTIMEZONE');
    expect(text).toContain(`TZID:${TZ}`);
    // No resident's name or e-mail address, of anyone in the system.
    for (const resident of connected.fixtures.residents.filter((r) => r.deviceId === connected.deviceId)) {
      expect(text).not.toContain(resident.email);
      expect(text).not.toContain(resident.name);
    }
    expect(text).not.toMatch(/[\w.+-]+@(?!laundry-portal)[\w-]+\.[\w.]+/);
  });

  it('titles events in the creator language of the feed, whoever reads it', async () => {
    const { url } = await roomFeed(manager, 'sv');
    const text = await (await read(url)).text();
    const summaries = veventsOf(text).map((e) => summaryOf(e));
    expect(summaries.some((s) => s.startsWith('Bokad – lägenhet '))).toBe(true);
    expect(summaries.every((s) => /^(Bokad|Underhåll)/.test(s))).toBe(true);
  });

  it('puts bookings on both DST nights of 2026 at their instants through the whole path', async () => {
    const { url } = await roomFeed();
    const base = { userId: null, ownerId: null, ownerType: 'Service' as const, status: 'Unused' as const, resourceId, deviceId: connected.deviceId };
    const spring = { ...base, id: randomUUID(), startTime: '2026-03-29T00:00:00.000Z', endTime: '2026-03-29T03:00:00.000Z' };
    const autumn = { ...base, id: randomUUID(), startTime: '2026-10-24T23:00:00.000Z', endTime: '2026-10-25T03:00:00.000Z' };
    await applyReservationChange(db(), { type: 'created', reservation: spring });
    await applyReservationChange(db(), { type: 'created', reservation: autumn });
    const text = await (await read(url, deps({ now: () => new Date('2026-03-15T12:00:00Z') }))).text();
    const events = new Map(veventsOf(text).map((e) => [e.uid, e]));
    for (const r of [spring, autumn]) {
      const event = events.get(`${r.id}@laundry-portal`)!;
      expect(event.start.getTime()).toBe(Date.parse(r.startTime));
      expect(event.end?.getTime()).toBe(Date.parse(r.endTime));
    }
    expect(text).toContain(`DTSTART;TZID=${TZ}:20260329T010000`);
    expect(text).toContain(`DTEND;TZID=${TZ}:20260329T050000`);
    expect(text).toContain(`DTSTART;TZID=${TZ}:20261025T010000`);
    expect(text).toContain(`DTEND;TZID=${TZ}:20261025T040000`);
    await applyReservationChange(db(), { type: 'cancelled', deviceId: connected.deviceId, reservationId: spring.id });
    await applyReservationChange(db(), { type: 'cancelled', deviceId: connected.deviceId, reservationId: autumn.id });
  });

  it('keeps only the SHA-256 of the token', async () => {
    const { feed, url } = await roomFeed();
    const token = fileOf(url).replace(/\.ics$/, '');
    const [row] = await db().select().from(calendarFeeds).where(eq(calendarFeeds.id, feed.id));
    expect(row!.tokenHash).toBe(feedTokenHash(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(feed)).not.toContain(token);
  });

  it('serves an apartment feed with its bookings in every room (and no one else’s), titled by the room', async () => {
    const now = Date.now();
    const range = { from: new Date(now - 30 * 86_400_000), to: new Date(now + 5 * 366 * 86_400_000) };
    const booked = (await readReservations(db(), connected.deviceId, range)).find((r) => r.ownerType === 'Group' && r.ownerId);
    const groupId = booked!.ownerId!;
    const { url, feed } = await createFeed(db(), {
      user: admin,
      input: { deviceId: connected.deviceId, scope: 'apartment', groupId },
      locale: 'en',
      idempotencyKey: randomUUID(),
      portalUrl: PORTAL,
    });
    expect(feed.groupId).toBe(groupId);
    const text = await (await read(url)).text();
    const members = (await readUsers(db(), connected.deviceId, [groupId])).map((u) => u.id);
    const expected = await readReservationsOfApartment(db(), connected.deviceId, { groupId, userIds: members }, range);
    const events = veventsOf(text);
    expect(events.length).toBeGreaterThan(0);
    expect(events.map((e) => e.uid).sort()).toEqual(expected.map((r) => `${r.id}@laundry-portal`).sort());
    const names = new Map((await readResources(db(), connected.deviceId)).map((r) => [r.id, r.name]));
    const byUid = new Map(events.map((e) => [e.uid, e]));
    for (const r of expected) expect(summaryOf(byUid.get(`${r.id}@laundry-portal`)!)).toBe(names.get(r.resourceId));
    expect(text).toContain('X-WR-CALNAME:Apartment ');
  });

  it('answers 404 alike for unknown, malformed and revoked tokens; rotation ends the old address at once', async () => {
    const { feed, url } = await roomFeed();
    const unknown = await read(`${PORTAL}/feeds/${randomBytes(32).toString('base64url')}.ics`);
    const malformed = await read(`${PORTAL}/feeds/x'%20OR%201=1.ics`);
    expect(unknown.status).toBe(404);
    expect(malformed.status).toBe(404);
    const unknownBody = await unknown.text();
    expect(await malformed.text()).toBe(unknownBody);

    const rotated = await rotateFeed(db(), { user: manager, feedId: feed.id, portalUrl: PORTAL });
    expect(rotated.url).not.toBe(url);
    expect(rotated.feed.rotatedAt).not.toBeNull();
    expect((await read(url)).status).toBe(404);
    expect((await read(rotated.url)).status).toBe(200);

    await revokeFeed(db(), { user: admin, feedId: feed.id });
    const revoked = await read(rotated.url);
    expect(revoked.status).toBe(404);
    expect(await revoked.text()).toBe(unknownBody);
    expect((await listFeeds(db(), manager, connected.deviceId, { scope: 'room', resourceId })).map((f) => f.id)).not.toContain(feed.id);
    // A second revoke, or a rotate of a revoked feed: nothing to act on.
    await expect(revokeFeed(db(), { user: admin, feedId: feed.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(rotateFeed(db(), { user: admin, feedId: feed.id, portalUrl: PORTAL })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('rate-limits per token and address with 429 and Retry-After', async () => {
    const { url } = await roomFeed();
    const limited = deps({ limiter: createTokenRateLimiter('feed', { perToken: { points: 2, duration: 60 }, perAddress: { points: 100, duration: 60 } }) });
    expect((await read(url, limited)).status).toBe(200);
    expect((await read(url, limited)).status).toBe(200);
    const third = await read(url, limited);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await third.json()) as { error: { message: string } }).error.message).toMatch(/Too many requests/);
    // Another address is counted on its own.
    expect((await read(url, limited, '198.51.100.7')).status).toBe(200);
  });

  it('lets only an admin or a manager of the system create, rotate, revoke or list feeds', async () => {
    await expect(roomFeed(otherManager)).rejects.toMatchObject({ code: 'forbidden' });
    const { feed } = await roomFeed(manager);
    await expect(rotateFeed(db(), { user: otherManager, feedId: feed.id, portalUrl: PORTAL })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(revokeFeed(db(), { user: otherManager, feedId: feed.id })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(listFeeds(db(), otherManager, connected.deviceId, { scope: 'room', resourceId })).rejects.toMatchObject({ code: 'forbidden' });
    // Still active, still listed for those allowed.
    expect((await listFeeds(db(), admin, connected.deviceId, { scope: 'room', resourceId })).map((f) => f.id)).toContain(feed.id);
  });

  it('refuses a room the system does not have, a mismatched target, and a repeated Idempotency-Key', async () => {
    const create = (input: Parameters<typeof createFeed>[1]['input'], idempotencyKey = randomUUID()) =>
      createFeed(db(), { user: manager, input, locale: 'en', idempotencyKey, portalUrl: PORTAL });
    await expect(create({ deviceId: connected.deviceId, scope: 'room', resourceId: randomUUID() })).rejects.toMatchObject({ code: 'not_found' });
    await expect(create({ deviceId: connected.deviceId, scope: 'apartment', groupId: randomUUID() })).rejects.toMatchObject({ code: 'not_found' });
    await expect(create({ deviceId: connected.deviceId, scope: 'room', groupId: randomUUID() })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(create({ deviceId: connected.deviceId, scope: 'apartment', groupId: randomUUID(), resourceId })).rejects.toMatchObject({ code: 'bad_request' });
    const key = randomUUID();
    const before = (await listFeeds(db(), manager, connected.deviceId, { scope: 'room', resourceId })).length;
    await create({ deviceId: connected.deviceId, scope: 'room', resourceId }, key);
    await expect(create({ deviceId: connected.deviceId, scope: 'room', resourceId }, key)).rejects.toMatchObject({ code: 'conflict' });
    expect((await listFeeds(db(), manager, connected.deviceId, { scope: 'room', resourceId })).length).toBe(before + 1);
  });
});
