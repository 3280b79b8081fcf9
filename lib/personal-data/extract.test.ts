import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { MailFacts } from '@/lib/db/schema';
import {
  adminAudit,
  calendarFeeds,
  connections,
  mailOutbox,
  mirrorReleasedNoShows,
  mirrorReservations,
  mirrorResources,
  mirrorState,
  mirrorUserGroups,
  mirrorUsers,
  portalEvents,
  reservationRequests,
  roomClosures,
  systems,
  webhookEvents,
} from '@/lib/db/schema';
import { isApiError } from '@/lib/errors/api-error';
import { countingDb, describeWithDb } from '@/tests/db';
import { extractHtml, extractJson } from './document';
import { downloadExtract, parseExtractFile, parseExtractLocale, parseResidentRef } from './download';
import { gatherExtract } from './extract';
import { findResidents, parsePersonalDataQuery } from './find';

const NOW = new Date('2026-11-20T12:00:00Z');
/** The stored hash of an apartment feed's token: a secret, never in an extract. */
const FEED_HASH = createHash('sha256').update('feed-token').digest('hex');
const at = (iso: string) => new Date(iso);
const id = () => randomUUID();

/** The ApiError a call throws: its code and message key. */
async function refusal(run: () => unknown): Promise<{ code: string; key: string }> {
  try {
    await run();
  } catch (error) {
    if (isApiError(error)) return { code: error.code, key: error.text.key };
    throw error;
  }
  throw new Error('no refusal');
}

describeWithDb('a resident’s data extract', (ctx) => {
  const db = () => ctx().handle.db;
  const admin = { id: id(), name: 'Ada Admin' };
  const manager = id();
  // System A: Anna and her housemate Bo in LGH 1001, and Cecilia, whom only the portal's records still name.
  const systemA = id();
  const systemB = id();
  const group = id();
  const anna = id();
  const bo = id();
  const cecilia = id();
  // System B: another Anna Andersson, in another apartment.
  const groupB = id();
  const annaB = id();
  const room = id();
  const ids = {
    annaRequest: id(),
    annaFailed: id(),
    boRequest: id(),
    annaBRequest: id(),
    ceciliaRequest: id(),
    annaCorrelation: id(),
    boCorrelation: id(),
    annaBooked: id(),
    annaMirrored: id(),
    apartmentBooking: id(),
    boMirrored: id(),
    annaNoShow: id(),
    boNoShow: id(),
    annaMail: id(),
    boMail: id(),
    closure: id(),
    feed: id(),
    boClosureTarget: id(),
  };
  const facts = (apartment: string, arrangedBy: string): MailFacts => ({
    systemName: 'Ekhagen',
    timeZone: 'Europe/Stockholm',
    resourceId: room,
    resourceName: 'Tvättstuga 1',
    startTime: '2026-11-10T06:00:00.000Z',
    endTime: '2026-11-10T09:00:00.000Z',
    arrangedBy,
    residentApartment: apartment,
  });
  const request = (over: Partial<typeof reservationRequests.$inferInsert> & { id: string; deviceId: string; residentUserId: string }): typeof reservationRequests.$inferInsert => ({
    kind: 'create',
    resourceId: room,
    startTime: at('2026-11-10T06:00:00Z'),
    endTime: at('2026-11-10T09:00:00Z'),
    requestedBy: manager,
    requestedByName: 'Maja Manager',
    resourceName: 'Tvättstuga 1',
    status: 'succeeded',
    createdAt: at('2026-11-01T08:00:00Z'),
    ...over,
  });

  beforeAll(async () => {
    const [connection] = await db().insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning();
    await db().insert(systems).values([
      { deviceId: systemA, connectionId: connection!.id, name: 'Ekhagen' },
      { deviceId: systemB, connectionId: connection!.id, name: 'Gottsunda' },
    ]);
    const skipped = { total: 2, counts: { users: 2 }, samples: [{ collection: 'users' as const, id: anna, reason: 'anna-unreadable' }, { collection: 'users' as const, id: bo, reason: 'bo-unreadable' }] };
    await db().insert(mirrorState).values([
      { deviceId: systemA, generation: 3, refreshedAt: NOW, usersRefreshedAt: NOW, usersStatus: 'loaded', skippedItems: skipped },
      { deviceId: systemB, generation: 1, refreshedAt: NOW, usersRefreshedAt: NOW, usersStatus: 'loaded' },
    ]);
    await db().insert(mirrorResources).values({ deviceId: systemA, generation: 3, id: room, name: 'Tvättstuga 1', description: '', timeScheduleId: 's' });
    await db().insert(mirrorUserGroups).values([
      { deviceId: systemA, generation: 3, id: group, name: 'LGH 1001', apartmentId: '1001', referenceId: 'REF-1001' },
      { deviceId: systemB, generation: 1, id: groupB, name: 'LGH 2002', apartmentId: '2002', referenceId: 'REF-2002' },
    ]);
    await db().insert(mirrorUsers).values([
      { deviceId: systemA, generation: 3, id: anna, name: 'Anna Andersson', email: 'anna@example.com', userGroupId: group },
      { deviceId: systemA, generation: 3, id: bo, name: 'Bo Berg', email: 'bo@example.com', userGroupId: group },
      { deviceId: systemB, generation: 1, id: annaB, name: 'Anna Andersson', email: 'anna.b@example.com', userGroupId: groupB },
    ]);
    const booking = { deviceId: systemA, generation: 3, resourceId: room, status: 'Unused' as const };
    await db().insert(mirrorReservations).values([
      { ...booking, id: ids.annaMirrored, userId: anna, ownerId: anna, ownerType: 'User', startTime: at('2026-11-24T06:00:00Z'), endTime: at('2026-11-24T09:00:00Z') },
      { ...booking, id: ids.apartmentBooking, userId: null, ownerId: group, ownerType: 'Group', startTime: at('2026-11-25T06:00:00Z'), endTime: at('2026-11-25T09:00:00Z') },
      { ...booking, id: ids.boMirrored, userId: bo, ownerId: group, ownerType: 'Group', startTime: at('2026-11-26T06:00:00Z'), endTime: at('2026-11-26T09:00:00Z') },
    ]);
    const noShow = { deviceId: systemA, resourceId: room, ownerType: 'User' as const, releasedAt: at('2026-11-03T06:30:00Z') };
    await db().insert(mirrorReleasedNoShows).values([
      { ...noShow, id: ids.annaNoShow, userId: anna, ownerId: anna, startTime: at('2026-11-03T06:00:00Z'), endTime: at('2026-11-03T09:00:00Z') },
      { ...noShow, id: ids.boNoShow, userId: bo, ownerId: bo, startTime: at('2026-11-04T06:00:00Z'), endTime: at('2026-11-04T09:00:00Z') },
    ]);
    await db().insert(reservationRequests).values([
      request({ id: ids.annaRequest, deviceId: systemA, residentUserId: anna, residentName: 'Anna Andersson', residentApartment: 'LGH 1001', residentGroupId: group, note: 'Anna-note: knee, needs the low machine', correlationId: ids.annaCorrelation, reservationId: ids.annaBooked }),
      request({
        id: ids.annaFailed,
        deviceId: systemA,
        residentUserId: anna,
        residentName: 'Anna Andersson',
        residentApartment: 'LGH 1001',
        residentGroupId: group,
        status: 'failed',
        idempotencyKey: 'k-1',
        firstAnswer: { status: 409, code: 'conflict', message: 'Anna-first-answer: the slot is taken' },
        createdAt: at('2026-11-02T08:00:00Z'),
      }),
      request({ id: ids.boRequest, deviceId: systemA, residentUserId: bo, residentName: 'Bo Berg', residentApartment: 'LGH 1001', residentGroupId: group, note: 'Bo-note: secret', correlationId: ids.boCorrelation }),
      request({ id: ids.annaBRequest, deviceId: systemB, residentUserId: annaB, residentName: 'Anna Andersson', residentApartment: 'LGH 2002', residentGroupId: groupB, note: 'Other-Anna-note' }),
      request({ id: ids.ceciliaRequest, deviceId: systemA, residentUserId: cecilia, residentName: 'Cecilia Flyttad', residentApartment: 'LGH 1044', note: 'Cecilia-note' }),
    ]);
    await db().insert(portalEvents).values([
      { deviceId: systemA, type: 'request.updated', data: { id: ids.annaRequest, residentUserId: anna, status: 'pending', note: 'Anna-note: knee, needs the low machine' } },
      { deviceId: systemA, type: 'request.updated', data: { id: ids.boRequest, residentUserId: bo, status: 'pending', note: 'Bo-note: secret' } },
    ]);
    await db().insert(webhookEvents).values([
      { webhookId: 'wh-anna', eventType: 'reservation.created', correlationId: ids.annaCorrelation, succeeded: true, payload: { marker: 'anna-webhook-payload' }, receivedAt: at('2026-11-01T08:00:05Z') },
      { webhookId: 'wh-bo', eventType: 'reservation.created', correlationId: ids.boCorrelation, succeeded: true, payload: { marker: 'bo-webhook-payload' } },
    ]);
    await db().insert(mailOutbox).values([
      { id: ids.annaMail, deviceId: systemA, kind: 'booked', reservationId: ids.annaBooked, requestId: ids.annaRequest, recipient: 'anna@example.com', recipientName: 'Anna Andersson', locale: 'en', facts: facts('LGH 1001', 'Maja Manager'), status: 'sent', subject: 'Anna-subject: booked', raw: 'Anna-raw-message', createdAt: at('2026-11-01T08:00:06Z'), sentAt: at('2026-11-01T08:00:07Z') },
      { id: ids.boMail, deviceId: systemA, kind: 'booked', reservationId: id(), requestId: ids.boRequest, recipient: 'bo@example.com', recipientName: 'Bo Berg', locale: 'en', facts: facts('LGH 1001', 'Maja Manager'), status: 'sent', subject: 'Bo-subject', raw: 'Bo-raw-message' },
    ]);
    await db().insert(roomClosures).values({
      id: ids.closure,
      deviceId: systemA,
      resourceIds: [room],
      startsAt: at('2026-11-24T00:00:00Z'),
      endsAt: at('2026-11-27T00:00:00Z'),
      reason: 'Closure-reason: pipe repair',
      createdByName: 'Maja Manager',
      status: 'done',
      targets: [
        { reservationId: ids.annaMirrored, resourceId: room, startTime: '2026-11-24T06:00:00.000Z', endTime: '2026-11-24T09:00:00.000Z', apartment: 'LGH 1001', residentName: 'Anna Andersson' },
        { reservationId: ids.boClosureTarget, resourceId: room, startTime: '2026-11-26T06:00:00.000Z', endTime: '2026-11-26T09:00:00.000Z', apartment: 'LGH 1001', residentName: 'Bo Berg' },
      ],
    });
    await db().insert(calendarFeeds).values({ id: ids.feed, deviceId: systemA, scope: 'apartment', groupId: group, tokenHash: FEED_HASH, locale: 'sv', createdAt: at('2026-10-01T10:00:00Z') });
    await db().insert(adminAudit).values({ actorId: admin.id, actorName: admin.name, action: 'system.update', targetType: 'system', targetId: systemA, targetName: 'Ekhagen', detail: { note: `about ${anna}` } });
  });

  const others = ['Bo-note', 'Bo Berg', 'bo@example.com', 'Bo-subject', 'Bo-raw-message', 'bo-webhook-payload', 'bo-unreadable', 'Other-Anna-note', 'anna.b@example.com', 'LGH 2002', 'Cecilia', FEED_HASH];

  it('holds every place the portal keeps Anna’s data, and nothing of her housemate, her namesake in another system or a feed’s secret', async () => {
    const extract = await gatherExtract(db(), { deviceId: systemA, userId: anna }, NOW);
    expect(extract).not.toBeNull();
    const e = extract!;
    expect(e.resident).toMatchObject({ deviceId: systemA, systemName: 'Ekhagen', userId: anna, name: 'Anna Andersson', email: 'anna@example.com', apartment: 'LGH 1001', groupId: group, inBookingSystem: true });
    expect(e.portal.requests.map((r) => r.id)).toEqual([ids.annaRequest, ids.annaFailed]);
    expect(e.portal.requests[0]).toMatchObject({ note: 'Anna-note: knee, needs the low machine', requestedByName: 'Maja Manager', requestedById: manager, room: 'Tvättstuga 1' });
    expect(e.portal.requests[0]!.events.map((x) => x.status)).toEqual(['pending']);
    expect(e.portal.requests[0]!.outcomes.map((x) => x.payload)).toEqual([{ marker: 'anna-webhook-payload' }]);
    expect(e.portal.requests[1]!.firstAnswer?.message).toBe('Anna-first-answer: the slot is taken');
    expect(e.portal.emails.map((m) => [m.id, m.recipient, m.subject, m.raw])).toEqual([[ids.annaMail, 'anna@example.com', 'Anna-subject: booked', 'Anna-raw-message']]);
    expect(e.portal.emails[0]!.text).toContain('Anna Andersson');
    expect(e.portal.calendarFeeds).toEqual([{ id: ids.feed, createdAt: '2026-10-01T10:00:00.000Z', rotatedAt: null, revokedAt: null, works: true }]);
    expect(e.portal.closures.map((c) => [c.id, c.reason, c.targets.map((t) => t.reservationId)])).toEqual([[ids.closure, 'Closure-reason: pipe repair', [ids.annaMirrored]]]);
    expect(e.portal.releasedNoShows.map((n) => n.id)).toEqual([ids.annaNoShow]);
    expect(e.portal.audit.map((a) => a.action)).toEqual(['system.update']);
    expect(e.bookingSystem.heldBy).toBe('booking-system');
    expect(e.bookingSystem.user).toEqual({ id: anna, name: 'Anna Andersson', email: 'anna@example.com' });
    expect(e.bookingSystem.apartment).toEqual({ groupId: group, name: 'LGH 1001', apartmentId: '1001', referenceId: 'REF-1001' });
    expect(e.bookingSystem.reservations.map((r) => [r.id, r.heldAs])).toEqual([
      [ids.annaMirrored, 'user'],
      [ids.apartmentBooking, 'apartment'],
    ]);
    expect(e.bookingSystem.unreadableItems.map((s) => s.reason)).toEqual(['anna-unreadable']);

    const json = extractJson(e);
    expect(JSON.parse(json)).toEqual(e);
    const html = await extractHtml(e, 'en');
    for (const text of [json, html]) {
      for (const other of others) expect(text, other).not.toContain(other);
      for (const otherId of [bo, annaB, cecilia, ids.boRequest, ids.boMirrored, ids.boNoShow, ids.boMail, ids.boClosureTarget]) expect(text).not.toContain(otherId);
    }
  });

  it('reads each place once: a bounded number of statements, however much the resident has', async () => {
    const { db: counted, queries } = await countingDb(ctx().handle);
    await gatherExtract(counted, { deviceId: systemA, userId: anna }, NOW);
    // The system, the user and their apartment (2), requests, events, the mirror's state, rooms,
    // bookings, no-shows, then outcomes, e-mails, feeds, closures and audit entries.
    expect(queries()).toBe(14);
  });

  it('says the same in the JSON and the readable document, in either language', async () => {
    const e = (await gatherExtract(db(), { deviceId: systemA, userId: anna }, NOW))!;
    const json = extractJson(e);
    const facts = ['Anna Andersson', 'anna@example.com', 'LGH 1001', 'REF-1001', 'Anna-note: knee, needs the low machine', 'Anna-first-answer: the slot is taken', 'Anna-subject: booked', 'Closure-reason: pipe repair', 'Maja Manager', 'Tvättstuga 1', 'Ekhagen', anna];
    for (const locale of ['en', 'sv'] as const) {
      const html = await extractHtml(e, locale);
      expect(html).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${locale}">`));
      for (const fact of facts) {
        expect(json, fact).toContain(fact);
        expect(html, `${fact} in ${locale}`).toContain(fact);
      }
      // One row per item: requests 2, e-mails 1, feeds 1, closures 1, no-shows 1, audit 1, bookings 2.
      expect(html.match(/<tr><td>/g)?.length).toBe(9);
    }
    expect(await extractHtml(e, 'en')).toContain('Held by the booking system (its owner answers for it)');
    expect(await extractHtml(e, 'sv')).toContain('Hålls av bokningssystemet (dess ägare ansvarar för det)');
  });

  it('escapes what it shows: a note cannot add markup to the document', async () => {
    const e = (await gatherExtract(db(), { deviceId: systemA, userId: anna }, NOW))!;
    e.portal.requests[0]!.note = '<script>alert(1)</script>';
    const html = await extractHtml(e, 'en');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('finds a resident the booking system no longer lists from the portal’s records, with the apartment they had', async () => {
    const e = (await gatherExtract(db(), { deviceId: systemA, userId: cecilia }, NOW))!;
    expect(e.resident).toMatchObject({ name: 'Cecilia Flyttad', apartment: 'LGH 1044', email: null, inBookingSystem: false });
    expect(e.portal.requests.map((r) => r.note)).toEqual(['Cecilia-note']);
    expect(e.bookingSystem.user).toBeNull();
    expect(extractJson(e)).not.toContain('Anna');
  });

  it('records each download in the audit log, naming the resident but copying none of their data; the next extract lists it', async () => {
    const download = await downloadExtract(db(), admin, { deviceId: systemA, userId: anna }, 'extract.json', 'en', NOW);
    expect(download.contentType).toBe('application/json; charset=utf-8');
    expect(download.fileName).toBe(`personal-data-2026-11-20-${anna.slice(0, 8)}.json`);
    const entries = await db().select().from(adminAudit).where(eq(adminAudit.action, 'personal-data.extract'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: admin.id, actorName: 'Ada Admin', targetType: 'resident', targetId: `${systemA}/${anna}`, targetName: 'Anna Andersson', detail: { system: 'Ekhagen', format: 'json', locale: 'en' } });
    expect(JSON.stringify(entries[0]!.detail)).not.toMatch(/anna@|note|1001/i);
    const html = await downloadExtract(db(), admin, { deviceId: systemA, userId: anna }, 'extract.html', 'sv', NOW);
    expect(html.contentType).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('personal-data.extract');
    const again = (await gatherExtract(db(), { deviceId: systemA, userId: anna }, NOW))!;
    expect(again.portal.audit.map((a) => a.action)).toEqual(['system.update', 'personal-data.extract', 'personal-data.extract']);
    // Bo's extract does not list Anna's downloads.
    const boExtract = (await gatherExtract(db(), { deviceId: systemA, userId: bo }, NOW))!;
    expect(boExtract.portal.audit).toEqual([]);
    expect(boExtract.portal.requests.map((r) => r.id)).toEqual([ids.boRequest]);
  });

  it('refuses bad ids, files and languages with a sentence, and a resident it knows nothing of with a 404 and no audit entry', async () => {
    expect(await refusal(() => parseResidentRef('not-a-uuid', anna))).toEqual({ code: 'bad_request', key: 'errors.personalDataBadSystem' });
    expect(await refusal(() => parseResidentRef(systemA, null))).toEqual({ code: 'bad_request', key: 'errors.personalDataBadUser' });
    expect(await refusal(() => parseResidentRef(systemA, "' OR 1=1 --"))).toEqual({ code: 'bad_request', key: 'errors.personalDataBadUser' });
    expect(await refusal(() => parseExtractFile('extract.pdf'))).toEqual({ code: 'not_found', key: 'errors.personalDataNoFile' });
    expect(await refusal(() => parseExtractLocale('de', 'en'))).toEqual({ code: 'bad_request', key: 'errors.personalDataBadLanguage' });
    expect(parseExtractLocale(null, 'sv')).toBe('sv');
    const before = await db().select().from(adminAudit).where(and(eq(adminAudit.action, 'personal-data.extract')));
    expect(await refusal(() => downloadExtract(db(), admin, { deviceId: systemA, userId: id() }, 'extract.html', 'en', NOW))).toEqual({ code: 'not_found', key: 'errors.personalDataNoResident' });
    expect(await refusal(() => downloadExtract(db(), admin, { deviceId: id(), userId: anna }, 'extract.html', 'en', NOW))).toEqual({ code: 'not_found', key: 'errors.personalDataNoResident' });
    expect(await db().select().from(adminAudit).where(eq(adminAudit.action, 'personal-data.extract'))).toHaveLength(before.length);
  });

  it('finds residents in every system by name, e-mail, apartment or reference id, and those only the portal’s records name', async () => {
    const pairs = async (q: string) => (await findResidents(db(), q)).residents.map((r) => `${r.systemName}:${r.name}:${r.source}`).sort();
    expect(await pairs('anna andersson')).toEqual(['Ekhagen:Anna Andersson:booking-system', 'Gottsunda:Anna Andersson:booking-system']);
    expect(await pairs('anna@ex')).toEqual(['Ekhagen:Anna Andersson:booking-system']);
    expect(await pairs('1001')).toEqual(['Ekhagen:Anna Andersson:booking-system', 'Ekhagen:Bo Berg:booking-system']);
    expect(await pairs('REF-2002')).toEqual(['Gottsunda:Anna Andersson:booking-system']);
    expect(await pairs('Cecilia')).toEqual(['Ekhagen:Cecilia Flyttad:portal-records']);
    expect(await pairs('LGH 1044')).toEqual(['Ekhagen:Cecilia Flyttad:portal-records']);
    expect(await pairs('nobody-by-this-name')).toEqual([]);
    const found = (await findResidents(db(), 'Anna Andersson')).residents.find((r) => r.deviceId === systemA)!;
    expect(found).toMatchObject({ userId: anna, email: 'anna@example.com', apartment: 'LGH 1001', referenceId: 'REF-1001', groupId: group });
  });

  it('refuses a search that is empty, too short, too long or holds control characters, with a sentence', async () => {
    expect(await refusal(() => parsePersonalDataQuery(''))).toEqual({ code: 'bad_request', key: 'errors.personalDataQueryTooShort' });
    expect(await refusal(() => parsePersonalDataQuery(' a '))).toEqual({ code: 'bad_request', key: 'errors.personalDataQueryTooShort' });
    expect(await refusal(() => parsePersonalDataQuery('x'.repeat(300)))).toEqual({ code: 'bad_request', key: 'errors.searchTooLong' });
    expect(await refusal(() => parsePersonalDataQuery('an\u0000na'))).toEqual({ code: 'bad_request', key: 'errors.searchControlCharacters' });
    expect(await refusal(() => findResidents(db(), '%'))).toEqual({ code: 'bad_request', key: 'errors.personalDataQueryTooShort' });
    // LIKE's wildcards are searched for as themselves.
    expect((await findResidents(db(), '%%')).residents).toEqual([]);
  });
});
