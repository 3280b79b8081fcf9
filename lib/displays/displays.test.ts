import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listAudit } from '@/lib/admin/audit';
import { createUser, setManagerSystems } from '@/lib/auth/users';
import type { SessionUser } from '@/lib/auth/schemas';
import { displays } from '@/lib/db/schema';
import { handleApiError } from '@/lib/errors/api-error';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { readResources, readUsers } from '@/lib/mirror/store';
import { storeConnection } from '@/lib/systems/store';
import { startConnectedSandbox, type ConnectedSandbox } from '@/tests/connected-sandbox';
import { describeWithDb } from '@/tests/db';
import { createDisplay, displayOfToken, listDisplays, revokeDisplay, rotateDisplay, updateDisplay } from './displays';
import { createTokenRateLimiter } from '@/lib/http/rate-limit';
import { displayPageResponse, displayScreenResponse, type DisplayDeps } from './serve';

const PORTAL = 'http://192.168.1.20:3000';

describeWithDb('laundry-room displays', (ctx) => {
  let connected: ConnectedSandbox;
  let manager: SessionUser;
  let otherManager: SessionUser;
  let rooms: { id: string; name: string }[];
  const db = () => ctx().handle.db;

  beforeAll(async () => {
    connected = await startConnectedSandbox(db(), { sql: ctx().handle.sql, preset: 'demo', seed: 5 });
    const approval = connected.fixtures.approvals[0]!;
    await storeConnection(db(), { approvalId: approval.approvalId, apiKey: connected.apiKey, deviceIds: [connected.deviceId], encryptionKey: randomBytes(32) });
    const otherDeviceId = randomUUID();
    await storeConnection(db(), { approvalId: randomUUID(), apiKey: 'other-key', deviceIds: [otherDeviceId], encryptionKey: randomBytes(32) });
    manager = await createUser(db(), { email: `m-${randomUUID()}@example.com`, name: 'Mona Manager', role: 'manager', passwordHash: 'x' });
    otherManager = await createUser(db(), { email: `o-${randomUUID()}@example.com`, name: 'Otto Other', role: 'manager', passwordHash: 'x' });
    await setManagerSystems(db(), manager.id, [connected.deviceId]);
    await setManagerSystems(db(), otherManager.id, [otherDeviceId]);
    rooms = (await readResources(db(), connected.deviceId)).map((r) => ({ id: r.id, name: r.name }));
  }, 120_000);

  afterAll(() => connected.stop());

  const deps = (over: Partial<DisplayDeps> = {}): DisplayDeps => ({
    db: db(),
    source: () => Promise.resolve(serviceMirrorSource(connected.client, connected.apiKey)),
    freshnessMs: 3_600_000,
    limiter: createTokenRateLimiter('display', { perToken: { points: 1000, duration: 60 }, perAddress: { points: 1000, duration: 60 } }),
    ...over,
  });
  const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  const page = (url: string, d = deps(), address = '192.0.2.1') => displayPageResponse(d, tokenOf(url), address).catch((e: unknown) => handleApiError(e, 'en'));
  const screen = (url: string, d = deps()) => displayScreenResponse(d, tokenOf(url), '192.0.2.1').catch((e: unknown) => handleApiError(e, 'en'));
  const refused = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a refusal'); }, (e: unknown) => handleApiError(e, 'en'));
  const create = (input: Partial<Parameters<typeof createDisplay>[1]['input']> = {}, user = manager) =>
    createDisplay(db(), { user, input: { deviceId: connected.deviceId, name: 'Entré Linnégatan 12', ...input }, idempotencyKey: randomUUID(), portalUrl: PORTAL });

  it('makes a display at the address the manager used, keeps only the hash of its token, and records it in the audit log', async () => {
    const { display, url } = await create();
    expect(url).toMatch(/^http:\/\/192\.168\.1\.20:3000\/display\/[A-Za-z0-9_-]{43}$/);
    expect(display).toMatchObject({ name: 'Entré Linnégatan 12', locale: 'sv', showApartments: false, resourceIds: null, createdByName: 'Mona Manager' });
    const [row] = await db().select().from(displays).where(eq(displays.id, display.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(tokenOf(url));
    const audit = await listAudit(db(), 1, 50);
    expect(audit.entries.find((e) => e.targetId === display.id)).toMatchObject({ action: 'display.create', actorName: 'Mona Manager', targetType: 'display' });
    expect(await listDisplays(db(), manager, connected.deviceId)).toContainEqual(display);
  });

  it('serves the screen in Swedish without a session: every room, free/in use, the next free time, today and tomorrow; no name or e-mail', async () => {
    const { url } = await create();
    const response = await page(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-robots-tag')).toContain('noindex');
    const csp = response.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    const html = await response.text();
    // Every inline script and style carries the nonce; nothing is loaded from elsewhere.
    expect(html.match(/<script/g)?.length).toBe(1);
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain('<html lang="sv">');
    for (const room of rooms) expect(html).toContain(`<h2>${room.name}</h2>`);
    expect(html).toMatch(/Ledigt nu|Upptaget till \d\d:\d\d|Service till \d\d:\d\d|Stängt till/);
    expect(html).toMatch(/Nästa lediga tid: i (dag|morgon) \d\d:\d\d–\d\d:\d\d|Ingen ledig tid/);
    expect(html).toContain('I dag');
    expect(html).toContain('I morgon');
    // No resident's name or e-mail, and no apartment number unless chosen.
    const residents = await readUsers(db(), connected.deviceId);
    expect(residents.length).toBeGreaterThan(5);
    for (const r of residents) {
      if (r.name.trim().length > 3) expect(html).not.toContain(r.name);
      if (r.email) expect(html).not.toContain(r.email);
    }
    expect(html).not.toMatch(/lgh \d/);
    expect(html).not.toContain('Mona Manager');
  });

  it('shows apartment numbers only on a display set to show them, and only the rooms chosen', async () => {
    const chosen = rooms.slice(0, 1);
    const { url, display } = await create({ resourceIds: chosen.map((r) => r.id.toUpperCase()), showApartments: true, locale: 'en' });
    expect(display.resourceIds).toEqual(chosen.map((r) => r.id));
    const body = (await (await screen(url)).json()) as { html: string; refreshedAt: string | null };
    expect(body.refreshedAt).not.toBeNull();
    expect(body.html).toContain(`<h2>${chosen[0]!.name}</h2>`);
    for (const other of rooms.slice(1)) expect(body.html).not.toContain(`<h2>${other.name}</h2>`);
    expect(body.html).toMatch(/Free now|In use until|Maintenance until|Closed until/);
    // The demo data books this room today or tomorrow: a booked slot names its apartment.
    expect(body.html).toMatch(/Booked · apt \S+|In use · apt \S+|Past · apt \S+/);
  });

  it('makes no second display for a retried create (same Idempotency-Key), and says why', async () => {
    const key = randomUUID();
    const input = { deviceId: connected.deviceId, name: 'Retried' };
    await createDisplay(db(), { user: manager, input, idempotencyKey: key, portalUrl: PORTAL });
    const again = await refused(createDisplay(db(), { user: manager, input, idempotencyKey: key, portalUrl: PORTAL }));
    expect(again.status).toBe(409);
    expect((await listDisplays(db(), manager, connected.deviceId)).filter((d) => d.name === 'Retried')).toHaveLength(1);
  });

  it('refuses rooms the system does not have and systems the manager may not see, and a name that is empty', async () => {
    const unknownRoom = await refused(create({ resourceIds: [randomUUID()] }));
    expect(unknownRoom.status).toBe(404);
    const foreign = await refused(create({}, otherManager));
    expect(foreign.status).toBe(403);
    const empty = await refused(create({ name: '   ' }));
    expect(empty.status).toBe(422);
    expect(JSON.stringify(await empty.json())).toContain('1 to 80 characters');
  });

  it('rotating switches the old address off at once; revoking says "switched off" (410) to the screen and the page', async () => {
    const { display, url } = await create();
    const rotated = await rotateDisplay(db(), { user: manager, displayId: display.id, portalUrl: PORTAL });
    expect(rotated.url).not.toBe(url);
    expect(rotated.display.rotatedAt).not.toBeNull();
    expect(await displayOfToken(db(), tokenOf(url))).toBeUndefined();
    expect((await screen(url)).status).toBe(404);
    expect((await screen(rotated.url)).status).toBe(200);

    const renamed = await updateDisplay(db(), { user: manager, displayId: display.id, input: { name: 'Tvättstugan, hus B', showApartments: true } });
    expect(renamed).toMatchObject({ name: 'Tvättstugan, hus B', showApartments: true });
    expect((await (await page(rotated.url)).text())).toContain('<title>Tvättstugan, hus B</title>');

    await revokeDisplay(db(), { user: manager, displayId: display.id });
    expect(await displayOfToken(db(), tokenOf(rotated.url))).toEqual({ revoked: true, locale: 'sv' });
    expect((await screen(rotated.url)).status).toBe(410);
    const gone = await page(rotated.url);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('Den här skärmen har stängts av.');
    expect((await listDisplays(db(), manager, connected.deviceId)).map((d) => d.id)).not.toContain(display.id);
    const actions = (await listAudit(db(), 1, 50)).entries.filter((e) => e.targetId === display.id).map((e) => e.action);
    expect(actions.sort()).toEqual(['display.create', 'display.revoke', 'display.rotate', 'display.update']);
    // Another system's manager can neither see nor change it.
    const foreign = await refused(rotateDisplay(db(), { user: otherManager, displayId: display.id, portalUrl: PORTAL }));
    expect(foreign.status).toBe(404);
  });

  it('records a rename (from → to) in the audit log under the new name; a request that changes nothing records nothing', async () => {
    const { display } = await create({ name: 'Entré A' });
    const entriesOf = async () => (await listAudit(db(), 1, 50)).entries.filter((e) => e.targetId === display.id && e.action === 'display.update');
    await updateDisplay(db(), { user: manager, displayId: display.id, input: { name: 'Entré A', locale: 'sv', showApartments: false } });
    expect(await entriesOf()).toEqual([]);
    const renamed = await updateDisplay(db(), { user: manager, displayId: display.id, input: { name: '  Entré B  ', locale: 'en' } });
    expect(renamed).toMatchObject({ name: 'Entré B', locale: 'en', createdByName: 'Mona Manager' });
    expect(await entriesOf()).toEqual([
      expect.objectContaining({ actorName: 'Mona Manager', targetType: 'display', targetName: 'Entré B', detail: { name: { from: 'Entré A', to: 'Entré B' }, locale: { from: 'sv', to: 'en' } } }),
    ]);
    // Another system's manager cannot rename it, and nothing is recorded for the try.
    const foreign = await refused(updateDisplay(db(), { user: otherManager, displayId: display.id, input: { name: 'Hijacked' } }));
    expect(foreign.status).toBe(403);
    expect(await entriesOf()).toHaveLength(1);
  });

  it('answers an unknown or malformed token with 404 and limits reads per token and address', async () => {
    expect((await page('x/not-a-token')).status).toBe(404);
    expect((await page(`x/${'A'.repeat(43)}`)).status).toBe(404);
    const { url } = await create();
    const limited = deps({ limiter: createTokenRateLimiter('display', { perToken: { points: 2, duration: 60 }, perAddress: { points: 100, duration: 60 } }) });
    expect((await screen(url, limited)).status).toBe(200);
    expect((await screen(url, limited)).status).toBe(200);
    const third = await screen(url, limited);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
