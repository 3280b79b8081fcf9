import { createHash, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
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
import { describeWithDb } from '@/tests/db';
import { ENGLISH_PLACEHOLDERS } from './anonymise';
import { claimRequest } from '@/lib/reservations/lifecycle';
import { eraseFromDetail, eraseResident, erasedRecords, planErasure, type ErasureDeps } from './erase';
import { gatherExtract } from './extract';

const NOW = new Date('2026-11-20T12:00:00Z');
const at = (iso: string) => new Date(iso);
const id = () => randomUUID();
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A point another transaction holds: `reached()` once it is in place (`inPlace`), `letGo()` to end it (`released`). */
function holdPoint() {
  let reached!: () => void;
  let letGo!: () => void;
  const inPlace = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (letGo = resolve));
  return { reached, inPlace, letGo, released };
}

/** The portal's own tables that can hold a resident's data (the mirror's are the booking system's). */
const PORTAL_TABLES = ['reservation_requests', 'portal_events', 'webhook_events', 'mail_outbox', 'room_closures', 'admin_audit', 'mirror_released_no_shows', 'calendar_feeds'];

describeWithDb('erasing a resident', (ctx) => {
  const db = () => ctx().handle.db;
  const admin = { id: id(), name: 'Ada Admin' };
  const manager = id();
  const system = id();
  const room = id();
  // Anna and Bo share LGH 1001; Dag lives alone in LGH 1002.
  const shared = id();
  const alone = id();
  const anna = id();
  const bo = id();
  const dag = id();
  const ids = { annaRequest: id(), annaFailed: id(), boRequest: id(), dagRequest: id(), annaBooked: id(), annaNext: id(), annaCorrelation: id(), boBooked: id(), annaMail: id(), annaQueued: id(), boMail: id(), closure: id(), sharedFeed: id(), aloneFeed: id(), annaNoShow: id(), boNoShow: id() };
  const annaSecrets = ['Anna Andersson', 'anna@example.com', 'Anna-note', 'Anna-first-answer', 'Anna-subject', 'Anna-raw', 'Anna-refusal'];
  const boFacts = ['Bo Berg', 'bo@example.com', 'Bo-note', 'Bo-subject', 'Bo-raw'];
  const refreshed: string[] = [];
  const deps = (refresh: ErasureDeps['refreshMirror'] = (deviceId) => Promise.resolve((refreshed.push(deviceId), 'refreshed' as const))): ErasureDeps => ({ db: db(), placeholders: ENGLISH_PLACEHOLDERS, refreshMirror: refresh });
  const facts = (apartment: string): MailFacts => ({
    systemName: 'Ekhagen',
    timeZone: 'Europe/Stockholm',
    resourceId: room,
    resourceName: 'Tvättstuga 1',
    startTime: '2026-11-24T06:00:00.000Z',
    endTime: '2026-11-24T09:00:00.000Z',
    arrangedBy: 'Maja Manager',
    residentApartment: apartment,
  });
  const request = (over: Partial<typeof reservationRequests.$inferInsert> & { id: string; residentUserId: string }): typeof reservationRequests.$inferInsert => ({
    deviceId: system,
    kind: 'create',
    resourceId: room,
    startTime: at('2026-11-24T06:00:00Z'),
    endTime: at('2026-11-24T09:00:00Z'),
    requestedBy: manager,
    requestedByName: 'Maja Manager',
    resourceName: 'Tvättstuga 1',
    status: 'succeeded',
    createdAt: at('2026-11-10T08:00:00Z'),
    ...over,
  });

  beforeAll(async () => {
    const [connection] = await db().insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning();
    await db().insert(systems).values({ deviceId: system, connectionId: connection!.id, name: 'Ekhagen' });
    await db().insert(mirrorState).values({ deviceId: system, generation: 1, refreshedAt: NOW, usersRefreshedAt: NOW, usersStatus: 'loaded' });
    await db().insert(mirrorResources).values({ deviceId: system, generation: 1, id: room, name: 'Tvättstuga 1', description: '', timeScheduleId: 's' });
    await db().insert(mirrorUserGroups).values([
      { deviceId: system, generation: 1, id: shared, name: 'LGH 1001', apartmentId: '1001', referenceId: 'REF-1001' },
      { deviceId: system, generation: 1, id: alone, name: 'LGH 1002', apartmentId: '1002', referenceId: 'REF-1002' },
    ]);
    await db().insert(mirrorUsers).values([
      { deviceId: system, generation: 1, id: anna, name: 'Anna Andersson', email: 'anna@example.com', userGroupId: shared },
      { deviceId: system, generation: 1, id: bo, name: 'Bo Berg', email: 'bo@example.com', userGroupId: shared },
      { deviceId: system, generation: 1, id: dag, name: 'Dag Dahl', email: 'dag@example.com', userGroupId: alone },
    ]);
    await db().insert(mirrorReservations).values({ deviceId: system, generation: 1, resourceId: room, status: 'Unused', id: ids.annaNext, userId: anna, ownerId: anna, ownerType: 'User', startTime: at('2026-11-28T06:00:00Z'), endTime: at('2026-11-28T09:00:00Z') });
    await db().insert(reservationRequests).values([
      request({ id: ids.annaRequest, residentUserId: anna, residentName: 'Anna Andersson', residentApartment: '1001', residentGroupId: shared, note: 'Anna-note: knee', correlationId: ids.annaCorrelation, reservationId: ids.annaBooked }),
      request({ id: ids.annaFailed, residentUserId: anna, residentName: 'Anna Andersson', residentApartment: '1001', residentGroupId: shared, status: 'failed', idempotencyKey: 'k-anna', firstAnswer: { status: 409, code: 'conflict', message: 'Anna-first-answer: taken' } }),
      request({ id: ids.boRequest, residentUserId: bo, residentName: 'Bo Berg', residentApartment: '1001', residentGroupId: shared, note: 'Bo-note: evenings', reservationId: ids.boBooked }),
      request({ id: ids.dagRequest, residentUserId: dag, residentName: 'Dag Dahl', residentApartment: '1002', residentGroupId: alone }),
    ]);
    await db().insert(portalEvents).values([
      { deviceId: system, type: 'request.updated', data: { id: ids.annaRequest, residentUserId: anna, residentName: 'Anna Andersson', residentApartment: '1001', status: 'pending', note: 'Anna-note: knee' } },
      { deviceId: system, type: 'request.updated', data: { id: ids.boRequest, residentUserId: bo, residentName: 'Bo Berg', residentApartment: '1001', status: 'pending', note: 'Bo-note: evenings' } },
    ]);
    await db().insert(webhookEvents).values({
      webhookId: 'wh-anna',
      eventType: 'reservation.created',
      correlationId: ids.annaCorrelation,
      succeeded: true,
      payload: { correlationId: ids.annaCorrelation, eventType: 'reservation.created', eventData: { succeeded: true, data: { reservationId: ids.annaBooked, userId: anna, userName: 'Anna Andersson' } } },
    });
    await db().insert(mailOutbox).values([
      { id: ids.annaMail, deviceId: system, kind: 'booked', reservationId: ids.annaBooked, requestId: ids.annaRequest, recipient: 'anna@example.com', recipientName: 'Anna Andersson', locale: 'en', facts: facts('1001'), status: 'sent', subject: 'Anna-subject', raw: 'Anna-raw' },
      { id: ids.annaQueued, deviceId: system, kind: 'cancelled', reservationId: ids.annaBooked, requestId: ids.annaRequest, recipient: 'anna@example.com', recipientName: 'Anna Andersson', locale: 'en', facts: facts('1001'), status: 'queued' },
      { id: ids.boMail, deviceId: system, kind: 'booked', reservationId: ids.boBooked, requestId: ids.boRequest, recipient: 'bo@example.com', recipientName: 'Bo Berg', locale: 'en', facts: facts('1001'), status: 'sent', subject: 'Bo-subject', raw: 'Bo-raw' },
    ]);
    await db().insert(roomClosures).values({
      id: ids.closure,
      deviceId: system,
      resourceIds: [room],
      startsAt: at('2026-11-28T00:00:00Z'),
      endsAt: at('2026-11-29T00:00:00Z'),
      reason: 'Pipe repair',
      createdByName: 'Maja Manager',
      status: 'done',
      targets: [
        { reservationId: ids.annaNext.toUpperCase(), resourceId: room, startTime: '2026-11-28T06:00:00.000Z', endTime: '2026-11-28T09:00:00.000Z', apartment: '1001', residentName: 'Anna Andersson', outcome: { kind: 'failed', key: 'x', values: { who: 'Anna-refusal' } } },
        { reservationId: ids.boBooked, resourceId: room, startTime: '2026-11-28T09:00:00.000Z', endTime: '2026-11-28T12:00:00.000Z', apartment: '1001', residentName: 'Bo Berg' },
      ],
    });
    const noShow = { deviceId: system, resourceId: room, ownerType: 'User' as const, releasedAt: at('2026-11-03T06:30:00Z'), startTime: at('2026-11-03T06:00:00Z'), endTime: at('2026-11-03T09:00:00Z') };
    await db().insert(mirrorReleasedNoShows).values([
      { ...noShow, id: ids.annaNoShow, userId: anna, ownerId: anna },
      { ...noShow, id: ids.boNoShow, userId: bo, ownerId: bo },
    ]);
    await db().insert(calendarFeeds).values([
      { id: ids.sharedFeed, deviceId: system, scope: 'apartment', groupId: shared, tokenHash: hash('shared'), locale: 'sv' },
      { id: ids.aloneFeed, deviceId: system, scope: 'apartment', groupId: alone, tokenHash: hash('alone'), locale: 'sv' },
    ]);
    await db().insert(adminAudit).values([
      { actorId: admin.id, actorName: admin.name, action: 'personal-data.extract', targetType: 'resident', targetId: `${system}/${anna}`, targetName: 'Anna Andersson', detail: { system: 'Ekhagen', format: 'html', locale: 'en' } },
      { actorId: admin.id, actorName: admin.name, action: 'system.update', targetType: 'system', targetId: system, targetName: 'Ekhagen', detail: { note: `about ${anna}`, email: 'anna@example.com' } },
    ]);
  });

  /** Every row of the portal's own tables as text. */
  const portalText = async () => {
    const texts: string[] = [];
    for (const table of PORTAL_TABLES) {
      const result: unknown = await db().execute(sql`SELECT t::text AS row FROM ${sql.identifier(table)} t`);
      texts.push(...(result as { rows: { row: string }[] }).rows.map((r) => `${table}: ${r.row}`));
    }
    return texts.join('\n');
  };

  it('says before anything changes what erasure will do: her records, the waiting e-mail, and the shared apartment’s feed kept', async () => {
    const plan = await planErasure(db(), (await gatherExtract(db(), { deviceId: system, userId: anna }, NOW))!);
    expect(plan).toMatchObject({ requests: 2, emails: 2, queuedEmails: 1, closures: 1, noShows: 1, auditEntries: 2, feedsToRevoke: 0, feedsKept: 1, housemates: 1, bookingSystem: { listed: true, reservations: 1 } });
    const dagPlan = await planErasure(db(), (await gatherExtract(db(), { deviceId: system, userId: dag }, NOW))!);
    expect(dagPlan).toMatchObject({ feedsToRevoke: 1, feedsKept: 0, housemates: 0 });
    // Planning changes nothing.
    expect(await portalText()).toContain('Anna-note');
  });

  it('waits for a request still waiting for the booking system’s answer (it would record the name again): a 409 with a sentence, nothing changed', async () => {
    const eva = id();
    const waiting = id();
    await db().insert(reservationRequests).values(request({ id: waiting, residentUserId: eva, residentName: 'Eva Ek', residentApartment: '1003', status: 'pending' }));
    const before = await portalText();
    await expect(eraseResident(deps(), admin, { deviceId: system, userId: eva }, NOW)).rejects.toSatisfy(
      (e) => isApiError(e) && e.code === 'conflict' && e.text.key === 'errors.personalDataErasureWaiting' && e.text.values?.count === 1,
    );
    expect(await portalText()).toBe(before);
    await db().update(reservationRequests).set({ status: 'succeeded' }).where(eq(reservationRequests.id, waiting));
    expect((await eraseResident(deps(), admin, { deviceId: system, userId: eva }, NOW)).counts.requests).toBe(1);
  });

  it('refuses a resident the portal knows nothing of with a 404, and records nothing', async () => {
    const before = await db().select().from(adminAudit);
    await expect(eraseResident(deps(), admin, { deviceId: system, userId: id() }, NOW)).rejects.toSatisfy((e) => isApiError(e) && e.code === 'not_found');
    expect(await db().select().from(adminAudit)).toHaveLength(before.length);
  });

  it('refuses an erasure confirmed with anything but her name or e-mail (her housemate’s name, nothing) with a 400, and changes nothing (issue 48)', async () => {
    const before = await portalText();
    const audit = await db().select().from(adminAudit);
    for (const confirmation of ['Bo Berg', 'bo@example.com', '', 'Anna']) {
      await expect(eraseResident(deps(), admin, { deviceId: system, userId: anna }, NOW, { confirmation })).rejects.toSatisfy(
        (e) => isApiError(e) && e.code === 'bad_request' && e.text.key === 'errors.personalDataErasureNotConfirmed',
      );
    }
    expect(await portalText()).toBe(before);
    expect(await db().select().from(adminAudit)).toHaveLength(audit.length);
  });

  it('leaves nothing of Anna in the portal’s own tables, keeps her housemate’s data and the shared feed, and records that it happened', async () => {
    const calls = refreshed.length;
    // Her name as typed in the confirmation, whatever its case.
    const result = await eraseResident(deps(), admin, { deviceId: system, userId: anna }, NOW, { confirmation: ' anna andersson ' });
    expect(result.counts).toEqual({ requests: 2, events: 1, deliveries: 1, emailsStopped: 1, emails: 2, closures: 1, noShows: 1, audit: 2, feedsRevoked: 0 });
    expect(result).toMatchObject({ mirror: 'refreshed', stillInBookingSystem: true, records: 10 });
    expect(refreshed.slice(calls)).toEqual([system]);

    const text = await portalText();
    for (const secret of annaSecrets) expect(text, secret).not.toContain(secret);
    // Her id is left only where the audit says whose erasure it was.
    const idLines = text.split('\n').filter((line) => line.includes(anna));
    expect(idLines.length).toBe(2);
    for (const line of idLines) expect(line).toMatch(/^admin_audit: .*personal-data\.(extract|erase)/);
    for (const fact of boFacts) expect(text, fact).toContain(fact);

    // Rows are kept for reports, with the apartment's wording.
    const requests = await db().select().from(reservationRequests).where(eq(reservationRequests.residentApartment, '1001'));
    expect(requests).toHaveLength(3);
    expect(requests.filter((r) => r.residentName === 'Resident in LGH 1001').map((r) => r.id).sort()).toEqual([ids.annaRequest, ids.annaFailed].sort());
    // The waiting e-mail is not sent.
    const [queued] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, ids.annaQueued));
    expect(queued).toMatchObject({ status: 'skipped', skipReason: 'erased', recipient: '(anonymised)' });
    // The closure keeps its reason and Bo's target; Anna's loses her name and the refusal's values.
    const [closure] = await db().select().from(roomClosures).where(eq(roomClosures.id, ids.closure));
    expect(closure!.reason).toBe('Pipe repair');
    expect(closure!.targets.map((t) => [t.residentName ?? null, t.outcome ?? null])).toEqual([
      [null, { kind: 'failed', key: 'x' }],
      ['Bo Berg', null],
    ]);
    // Bo still lives there: the apartment's feed keeps working.
    const feeds = await db().select().from(calendarFeeds);
    expect(feeds.map((f) => [f.id, f.revokedAt === null]).sort()).toEqual([[ids.sharedFeed, true], [ids.aloneFeed, true]].sort());
    // The no-show counts for the apartment.
    const [noShow] = await db().select().from(mirrorReleasedNoShows).where(eq(mirrorReleasedNoShows.id, ids.annaNoShow));
    expect(noShow).toMatchObject({ userId: null, ownerType: 'Group', ownerId: shared });

    const [entry] = await db().select().from(adminAudit).where(and(eq(adminAudit.action, 'personal-data.erase'), eq(adminAudit.targetId, `${system}/${anna}`)));
    expect(entry).toMatchObject({ actorId: admin.id, actorName: 'Ada Admin', targetType: 'resident', targetId: `${system}/${anna}`, targetName: 'Resident in LGH 1001' });
    expect(entry!.detail).toMatchObject({ system: 'Ekhagen', records: 10, feedsRevoked: 0, counts: result.counts, feedsKept: 1, erased: { apartment: '1001' } });
    // The booking system's copy is its owner's: still there, and the extract says so.
    const after = (await gatherExtract(db(), { deviceId: system, userId: anna }, NOW))!;
    expect(after.portal.requests).toEqual([]);
    expect(after.portal.emails).toEqual([]);
    expect(after.bookingSystem.user?.name).toBe('Anna Andersson');
    expect(after.portal.audit.map((a) => a.action)).toEqual(['personal-data.extract', 'personal-data.erase']);
  });

  it('changes nothing when asked again, and records the second request', async () => {
    const before = await portalText();
    const again = await eraseResident(deps(), admin, { deviceId: system, userId: anna }, NOW, { confirmation: 'anna@example.com' });
    expect(again.counts).toEqual({ requests: 0, events: 0, deliveries: 0, emailsStopped: 0, emails: 0, closures: 0, noShows: 0, audit: 0, feedsRevoked: 0 });
    const after = await portalText();
    // Only the new audit entry differs.
    expect(after.split('\n').filter((line) => !before.includes(line))).toHaveLength(1);
  });

  it('revokes the feeds of an apartment where the resident lives alone, and erases even when the booking system cannot be re-read', async () => {
    const result = await eraseResident(deps(() => Promise.reject(new Error('service down'))), admin, { deviceId: system, userId: dag }, NOW);
    expect(result).toMatchObject({ mirror: 'failed', stillInBookingSystem: true });
    expect(result.counts.feedsRevoked).toBe(1);
    const [feed] = await db().select().from(calendarFeeds).where(eq(calendarFeeds.id, ids.aloneFeed));
    expect(feed!.revokedAt).toEqual(NOW);
    expect(await portalText()).not.toContain('Dag Dahl');
  });

  it('keeps an apartment’s feeds when the portal has no user list to count housemates by, and puts a no-show of a user the list no longer has on the apartment', async () => {
    const frida = id();
    const fridaGroup = id();
    const fridaFeed = id();
    const fridaNoShow = id();
    await db().insert(reservationRequests).values(request({ id: id(), residentUserId: frida, residentName: 'Frida Fors', residentApartment: '1004', residentGroupId: fridaGroup }));
    await db().insert(calendarFeeds).values({ id: fridaFeed, deviceId: system, scope: 'apartment', groupId: fridaGroup, tokenHash: hash('frida'), locale: 'sv' });
    await db().insert(mirrorReleasedNoShows).values({ deviceId: system, resourceId: room, ownerType: 'User', id: fridaNoShow, userId: frida, ownerId: frida, releasedAt: at('2026-11-04T06:30:00Z'), startTime: at('2026-11-04T06:00:00Z'), endTime: at('2026-11-04T09:00:00Z') });
    // The last refresh could not read the user list and had none to keep.
    await db().update(mirrorState).set({ usersStatus: 'unavailable' }).where(eq(mirrorState.deviceId, system));
    try {
      const plan = await planErasure(db(), (await gatherExtract(db(), { deviceId: system, userId: frida }, NOW))!, NOW);
      expect(plan).toMatchObject({ housemates: null, feedsToRevoke: 0, feedsKept: 1 });
      const result = await eraseResident(deps(), admin, { deviceId: system, userId: frida }, NOW);
      expect(result.counts.feedsRevoked).toBe(0);
      const [feed] = await db().select().from(calendarFeeds).where(eq(calendarFeeds.id, fridaFeed));
      expect(feed!.revokedAt).toBeNull();
      // The mirror has no Frida: the no-show goes on the apartment her records name, not nowhere.
      const [noShow] = await db().select().from(mirrorReleasedNoShows).where(eq(mirrorReleasedNoShows.id, fridaNoShow));
      expect(noShow).toMatchObject({ userId: null, ownerType: 'Group', ownerId: fridaGroup });
    } finally {
      await db().update(mirrorState).set({ usersStatus: 'loaded' }).where(eq(mirrorState.deviceId, system));
    }
  });

  it('waits while the mail worker is sending one of their e-mails, and while a closure is still cancelling one of their bookings: a 409 each, nothing changed', async () => {
    const gus = id();
    const gusRequest = id();
    const gusBooked = id();
    const gusMail = id();
    const closure = id();
    await db().insert(reservationRequests).values(request({ id: gusRequest, residentUserId: gus, residentName: 'Gus Gran', residentApartment: '1005', reservationId: gusBooked }));
    await db().insert(mailOutbox).values({ id: gusMail, deviceId: system, kind: 'booked', reservationId: gusBooked, requestId: gusRequest, recipient: 'gus@example.com', recipientName: 'Gus Gran', locale: 'en', facts: facts('1005'), status: 'queued', leaseUntil: new Date(NOW.getTime() + 60_000) });
    const who = { deviceId: system, userId: gus };
    expect(await planErasure(db(), (await gatherExtract(db(), who, NOW))!, NOW)).toMatchObject({ sendingEmails: 1, queuedEmails: 1 });
    const before = await portalText();
    await expect(eraseResident(deps(), admin, who, NOW)).rejects.toSatisfy((e) => isApiError(e) && e.code === 'conflict' && e.text.key === 'errors.personalDataErasureSending');
    expect(await portalText()).toBe(before);

    // Sent meanwhile; now a closure is cancelling his booking (its cancel request would name him).
    await db().update(mailOutbox).set({ status: 'sent', leaseUntil: null }).where(eq(mailOutbox.id, gusMail));
    await db().insert(roomClosures).values({
      id: closure,
      deviceId: system,
      resourceIds: [room],
      startsAt: at('2026-11-24T00:00:00Z'),
      endsAt: at('2026-11-25T00:00:00Z'),
      reason: 'Floor',
      status: 'cancelling',
      targets: [{ reservationId: gusBooked.toUpperCase(), resourceId: room, startTime: '2026-11-24T06:00:00.000Z', endTime: '2026-11-24T09:00:00.000Z', apartment: '1005', residentName: 'Gus Gran' }],
    });
    expect(await planErasure(db(), (await gatherExtract(db(), who, NOW))!, NOW)).toMatchObject({ sendingEmails: 0, closuresCancelling: 1 });
    const middle = await portalText();
    await expect(eraseResident(deps(), admin, who, NOW)).rejects.toSatisfy((e) => isApiError(e) && e.code === 'conflict' && e.text.key === 'errors.personalDataErasureClosing');
    expect(await portalText()).toBe(middle);

    await db().update(roomClosures).set({ status: 'done' }).where(eq(roomClosures.id, closure));
    const result = await eraseResident(deps(), admin, who, NOW);
    expect(result.counts).toMatchObject({ requests: 1, emails: 1, closures: 1 });
    expect(await portalText()).not.toContain('Gus Gran');
  });

  it('waits for a row another transaction holds instead of skipping it, and a booking claimed for the resident meanwhile undoes the erasure (PostgreSQL: two connections)', async (t) => {
    if (ctx().kind !== 'postgres') t.skip();
    const ivy = id();
    const ivyRequest = id();
    await db().insert(reservationRequests).values(request({ id: ivyRequest, residentUserId: ivy, residentName: 'Ivy Isaksson', residentApartment: '1006', note: 'Ivy-note' }));
    // Another transaction (a webhook, the retention job) holds her request's row for a moment.
    const row = holdPoint();
    const holder = db().transaction(async (tx) => {
      await tx.select().from(reservationRequests).where(eq(reservationRequests.id, ivyRequest)).for('update');
      row.reached();
      await row.released;
    });
    await row.inPlace;
    const erasing = eraseResident(deps(), admin, { deviceId: system, userId: ivy }, NOW);
    await new Promise((r) => setTimeout(r, 300));
    row.letGo();
    await holder;
    expect((await erasing).counts.requests).toBe(1);
    expect(await portalText()).not.toContain('Ivy-note');

    // A booking claimed for Jon while his erasure runs: the claim holds his lock, so the erasure
    // waits, then finds the request waiting and refuses; nothing of his is changed.
    const jon = id();
    await db().insert(reservationRequests).values(request({ id: id(), residentUserId: jon, residentName: 'Jon Johansson', residentApartment: '1007', note: 'Jon-note' }));
    const claiming = holdPoint();
    const claim = claimRequest(
      db(),
      {
        kind: 'create',
        deviceId: system,
        resourceId: room,
        residentUserId: jon,
        reservationId: null,
        startTime: '2026-11-30T06:00:00.000Z',
        endTime: '2026-11-30T09:00:00.000Z',
        requestedBy: manager,
        requestedByName: 'Maja Manager',
        idempotencyKey: `jon-${id()}`,
        residentName: 'Jon Johansson',
        residentApartment: '1007',
        residentGroupId: null,
        resourceName: 'Tvättstuga 1',
        note: null,
      },
      async () => {
        claiming.reached();
        await claiming.released;
      },
    );
    await claiming.inPlace;
    const erasingJon = eraseResident(deps(), admin, { deviceId: system, userId: jon }, NOW);
    await new Promise((r) => setTimeout(r, 300));
    claiming.letGo();
    expect(await claim).toMatchObject({ fresh: true });
    await expect(erasingJon).rejects.toSatisfy((e) => isApiError(e) && e.code === 'conflict' && e.text.key === 'errors.personalDataErasureWaiting');
    expect(await portalText()).toContain('Jon-note');
  });
});

describe('an audit entry’s detail without the resident', () => {
  const anna = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
  it('replaces her id at any depth and takes name and address keys from the objects that name her, whatever the case', () => {
    const detail = { note: `about ${anna.toUpperCase()}`, email: 'admin@example.com', rows: [{ userId: anna, name: 'Anna Andersson', email: 'anna@example.com' }, { userId: 'other', name: 'Bo Berg' }], nested: { deep: { residentName: 'Anna Andersson', id: anna } } };
    expect(eraseFromDetail(detail, anna, '(anonymised)', false)).toEqual({
      note: 'about (anonymised)',
      rows: [{ userId: '(anonymised)' }, { userId: 'other', name: 'Bo Berg' }],
      nested: { deep: { id: '(anonymised)' } },
    });
  });
  it('takes every name and address key from an entry about her, and leaves a detail that is no object as it is but for her id', () => {
    expect(eraseFromDetail({ system: 'Ekhagen', name: 'Anna Andersson', inner: [{ recipient: 'anna@example.com', kind: 'x' }] }, anna, '(anonymised)', true)).toEqual({ system: 'Ekhagen', inner: [{ kind: 'x' }] });
    expect(eraseFromDetail(`user ${anna}`, anna, '(anonymised)', false)).toBe('user (anonymised)');
    expect(eraseFromDetail([anna, 3, null], anna, '$&', false)).toEqual(['$&', 3, null]);
    expect(eraseFromDetail(42, anna, 'x', true)).toBe(42);
  });
  it('counts the records the success line and the audit entry say: a stopped e-mail is among the e-mails, feeds are said apart', () => {
    expect(erasedRecords({ requests: 1, events: 2, deliveries: 3, emailsStopped: 100, emails: 4, closures: 5, noShows: 6, audit: 7, feedsRevoked: 100 })).toBe(28);
  });
});
