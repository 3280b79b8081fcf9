import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '@/lib/db/client';
import { connections, mailOutbox, mirrorState, mirrorUsers, systems } from '@/lib/db/schema';
import { claimRequest, markRequestAccepted, applyWebhookOutcome, markNotSent } from '@/lib/reservations/lifecycle';
import { describeWithDb } from '@/tests/db';
import { claimDueMail, listMail, requeueFailedMail } from './outbox';
import { MailWorker, errorText, redactSmtpUrl } from './worker';

const FROM = 'Tvättportalen <no-reply@portal.test>';

/** A real SMTP server in this process; every message it accepts, parsed. */
async function startSmtp(port = 0) {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('reject')) return callback(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }));
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        received.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = (server.server.address() as AddressInfo).port;
  return { received, port: address, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describeWithDb('resident e-mail outbox', (ctx) => {
  const db = () => ctx().handle.db;
  const manager = { id: randomUUID(), name: 'Maja Manager' };
  const smtps: { close: () => Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(smtps.map((s) => s.close()));
  });

  async function makeSystem(settings: { residentMail?: boolean; mailLocale?: string } = {}) {
    const deviceId = randomUUID();
    const [connection] = await db().insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning();
    await db().insert(systems).values({ deviceId, connectionId: connection!.id, name: 'Ekhagen', ...settings });
    await db().insert(mirrorState).values({ deviceId, generation: 3 });
    return deviceId;
  }
  async function addResident(deviceId: string, email: string | null, generation = 3) {
    const id = randomUUID();
    await db().insert(mirrorUsers).values({ deviceId, generation, id, name: 'Anna Andersson', email });
    return id;
  }
  /** A request confirmed by its webhook, through lifecycle as the webhook handler does it. */
  async function confirm(deviceId: string, residentUserId: string, options: { kind?: 'create' | 'cancel'; reservationId?: string; succeeded?: boolean; startHour?: number } = {}) {
    const kind = options.kind ?? 'create';
    const reservationId = options.reservationId ?? randomUUID();
    const start = new Date(Date.UTC(2026, 0, 13, options.startHour ?? 6));
    const claim = await claimRequest(db(), {
      kind,
      deviceId,
      resourceId: randomUUID(),
      residentUserId,
      reservationId: kind === 'cancel' ? reservationId : null,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 3 * 3_600_000).toISOString(),
      requestedBy: manager.id,
      requestedByName: manager.name,
      idempotencyKey: randomUUID(),
      residentName: 'Anna Andersson',
      residentApartment: '1102',
      residentGroupId: null,
      resourceName: 'Tvättstuga 1',
      note: null,
    });
    if (!('row' in claim)) throw new Error('clash');
    const correlationId = randomUUID();
    await markRequestAccepted(db(), claim.row.id, correlationId);
    const outcome = {
      correlationId,
      succeeded: options.succeeded ?? true,
      errorCode: options.succeeded === false ? 'Conflict' : null,
      errorDescription: null,
      reservationId: options.succeeded === false ? null : reservationId,
    };
    const events = await db().transaction((tx) => applyWebhookOutcome(tx, outcome));
    return { reservationId, correlationId, events, outcome };
  }
  const rowsOf = (reservationId: string) => db().select().from(mailOutbox).where(eq(mailOutbox.reservationId, reservationId));

  it('writes exactly one row for a confirmed booking; a duplicate webhook adds none', async () => {
    const deviceId = await makeSystem({ mailLocale: 'en' });
    const resident = await addResident(deviceId, 'anna@example.com');
    // A user of an older generation must not be read.
    await db().insert(mirrorUsers).values({ deviceId, generation: 2, id: resident, name: 'Old', email: 'old@example.com' });
    const { reservationId, outcome } = await confirm(deviceId, resident);
    const again = await db().transaction((tx) => applyWebhookOutcome(tx, outcome));
    expect(again.events).toEqual([]);
    const rows = await rowsOf(reservationId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'booked', status: 'queued', recipient: 'anna@example.com', recipientName: 'Anna Andersson', locale: 'en', attempts: 0 });
    expect(rows[0]?.facts).toMatchObject({ systemName: 'Ekhagen', timeZone: 'Europe/Stockholm', resourceName: 'Tvättstuga 1', arrangedBy: 'Maja Manager', residentApartment: '1102', startTime: '2026-01-13T06:00:00.000Z' });

    // Its cancellation is another kind: one more row, once.
    await confirm(deviceId, resident, { kind: 'cancel', reservationId, startHour: 6 });
    expect((await rowsOf(reservationId)).map((r) => r.kind).sort()).toEqual(['booked', 'cancelled']);
  });

  it('writes nothing for a failed outcome or a request refused before sending', async () => {
    const deviceId = await makeSystem();
    const resident = await addResident(deviceId, 'anna@example.com');
    const before = (await db().select({ n: sql<number>`count(*)::int` }).from(mailOutbox).where(eq(mailOutbox.deviceId, deviceId)))[0]?.n;
    await confirm(deviceId, resident, { succeeded: false });
    const claim = await claimRequest(db(), {
      kind: 'create', deviceId, resourceId: randomUUID(), residentUserId: resident, reservationId: null,
      startTime: '2026-02-01T06:00:00Z', endTime: '2026-02-01T09:00:00Z', requestedBy: manager.id, requestedByName: manager.name,
      idempotencyKey: randomUUID(), residentName: null, residentApartment: null, residentGroupId: null, resourceName: null, note: null,
    });
    if ('row' in claim) await markNotSent(db(), claim.row.id, { status: 409, code: 'x', message: 'no' }, 'Conflict');
    const after = (await db().select({ n: sql<number>`count(*)::int` }).from(mailOutbox).where(eq(mailOutbox.deviceId, deviceId)))[0]?.n;
    expect(before).toBe(0);
    expect(after).toBe(0);
  });

  it('skips a resident without an address, and every resident of a system with e-mail off', async () => {
    const deviceId = await makeSystem();
    const noAddress = await confirm(deviceId, await addResident(deviceId, null));
    expect((await rowsOf(noAddress.reservationId))[0]).toMatchObject({ status: 'skipped', skipReason: 'noAddress', recipient: null });
    const unknown = await confirm(deviceId, randomUUID());
    expect((await rowsOf(unknown.reservationId))[0]).toMatchObject({ status: 'skipped', skipReason: 'noAddress' });

    const off = await makeSystem({ residentMail: false });
    const disabled = await confirm(off, await addResident(off, 'anna@example.com'));
    expect((await rowsOf(disabled.reservationId))[0]).toMatchObject({ status: 'skipped', skipReason: 'disabled' });
    // A skipped row is never claimed.
    expect((await claimDueMail(db(), 100, 60)).map((r) => r.reservationId)).not.toContain(disabled.reservationId);
  });

  /** Sends every due row with fresh workers until none is left (the earlier tests' rows too). */
  async function drain(worker: MailWorker) {
    while ((await worker.runOnce()) > 0);
  }

  it('delivers over SMTP with the right To, From, Subject, Message-ID and calendar file', async () => {
    const smtp = await startSmtp();
    smtps.push(smtp);
    const deviceId = await makeSystem({ mailLocale: 'sv' });
    const { reservationId } = await confirm(deviceId, await addResident(deviceId, 'anna@example.com'));
    await drain(new MailWorker({ db: db(), smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: FROM, retryMaxSeconds: 1 }));
    const mail = smtp.received.find((m) => m.messageId === `<booked.${reservationId}@portal.test>`);
    expect(mail).toBeDefined();
    expect(mail?.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : null).toBe('anna@example.com');
    expect(mail?.from?.value[0]).toMatchObject({ address: 'no-reply@portal.test', name: 'Tvättportalen' });
    expect(mail?.subject).toBe('Tvättbokning: Tvättstuga 1, tisdag 13 januari 07:00–10:00');
    expect(mail?.text).toContain('Ordnat av: Maja Manager');
    const ics = mail?.attachments.find((a) => a.contentType.startsWith('text/calendar') || a.filename?.endsWith('.ics'));
    expect(ics?.content.toString('utf8')).toMatch(/METHOD:REQUEST/);
    const [row] = await rowsOf(reservationId);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, messageId: `<booked.${reservationId}@portal.test>`, lastError: null });
    expect(row?.raw).toContain('Message-ID: <booked.');
    expect(row?.sentAt).toBeInstanceOf(Date);
  });

  it('retries while the SMTP server is down, then delivers once when it returns', async () => {
    const port = await freePort();
    const deviceId = await makeSystem();
    const { reservationId } = await confirm(deviceId, await addResident(deviceId, 'bo@example.com'));
    const url = `smtp://mailer:s3cret-pw@127.0.0.1:${port}`;
    const worker = new MailWorker({ db: db(), smtpUrl: url, from: FROM, retryMaxSeconds: 1, retryBaseSeconds: 1, timeoutMs: 2_000 });
    await drain(worker);
    let [row] = await rowsOf(reservationId);
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row?.lastError).toBeTruthy();
    expect(row?.lastError).not.toContain('s3cret-pw');
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() - 2_000);
    // Not due yet: the backoff holds it.
    expect(await worker.runOnce()).toBe(0);

    const smtp = await startSmtp(port);
    smtps.push(smtp);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await drain(worker);
    await drain(worker);
    [row] = await rowsOf(reservationId);
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect(smtp.received.filter((m) => m.messageId === `<booked.${reservationId}@portal.test>`)).toHaveLength(1);
    await worker.stop();
  });

  it('fails a message the server refuses (550), shows why, and sends it again on request', async () => {
    const smtp = await startSmtp();
    smtps.push(smtp);
    const deviceId = await makeSystem();
    const { reservationId } = await confirm(deviceId, await addResident(deviceId, 'reject-me@example.com'));
    const worker = new MailWorker({ db: db(), smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: FROM, retryMaxSeconds: 1 });
    await drain(worker);
    const [row] = await rowsOf(reservationId);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.lastError).toMatch(/550|No such mailbox/);
    const listed = await listMail(db(), { deviceIds: [deviceId], status: 'failed', offset: 0, limit: 10 });
    expect(listed.rows.map((r) => r.id)).toEqual([row!.id]);
    const requeued = await requeueFailedMail(db(), row!.id);
    expect(requeued).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await requeueFailedMail(db(), row!.id)).toBeNull();
  });

  it('keeps the composed message without sending in capture mode', async () => {
    const deviceId = await makeSystem({ mailLocale: 'en' });
    const { reservationId } = await confirm(deviceId, await addResident(deviceId, 'cay@example.com'));
    await drain(new MailWorker({ db: db(), from: FROM, retryMaxSeconds: 1 }));
    const [row] = await rowsOf(reservationId);
    expect(row).toMatchObject({ status: 'captured', subject: 'Laundry booking: Tvättstuga 1, Tuesday 13 January 07:00–10:00' });
    const parsed = await simpleParser(row!.raw!);
    expect(parsed.messageId).toBe(`<booked.${reservationId}@portal.test>`);
    expect(parsed.html).toContain('Arranged by: Maja Manager');
  });

  it('a restart delivers what a crashed worker had claimed, after its lease', async () => {
    const smtp = await startSmtp();
    smtps.push(smtp);
    const deviceId = await makeSystem();
    const { reservationId } = await confirm(deviceId, await addResident(deviceId, 'dan@example.com'));
    // A worker that claimed the row and died before sending.
    const claimed = await claimDueMail(db(), 100, 1);
    expect(claimed.map((r) => r.reservationId)).toContain(reservationId);
    const restarted = new MailWorker({ db: db(), smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: FROM, retryMaxSeconds: 1 });
    expect(await restarted.runOnce()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await drain(restarted);
    expect((await rowsOf(reservationId))[0]).toMatchObject({ status: 'sent', attempts: 2 });
    expect(smtp.received.filter((m) => m.messageId?.includes(reservationId))).toHaveLength(1);
  });

  it('two workers over two connections deliver each message exactly once', async () => {
    const smtp = await startSmtp();
    smtps.push(smtp);
    const deviceId = await makeSystem();
    const reservations: string[] = [];
    for (let i = 0; i < 30; i += 1) reservations.push((await confirm(deviceId, await addResident(deviceId, `r${i}@example.com`), { startHour: i % 20 })).reservationId);
    const other = ctx().kind === 'postgres' ? await openDatabase(ctx().options) : null;
    const url = `smtp://127.0.0.1:${smtp.port}`;
    const a = new MailWorker({ db: db(), smtpUrl: url, from: FROM, retryMaxSeconds: 1, batch: 3, concurrency: 2 });
    const b = new MailWorker({ db: (other?.db ?? db()), smtpUrl: url, from: FROM, retryMaxSeconds: 1, batch: 3, concurrency: 2 });
    await Promise.all([drain(a), drain(b)]);
    await other?.close();
    for (const reservationId of reservations) {
      expect(smtp.received.filter((m) => m.messageId === `<booked.${reservationId}@portal.test>`)).toHaveLength(1);
    }
    const statuses = await db().select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.deviceId, deviceId));
    expect(statuses.every((s) => s.status === 'sent')).toBe(true);
  });

  it('never shows the SMTP password', () => {
    expect(redactSmtpUrl('smtps://user:p%40ss@mail.example.com:465')).toBe('smtps://user:***@mail.example.com:465');
    expect(errorText(new Error('connect to smtps://user:p%40ss@mail.example.com:465 failed: p@ss'), 'smtps://user:p%40ss@mail.example.com:465')).not.toMatch(/p%40ss|p@ss/);
  });
});
