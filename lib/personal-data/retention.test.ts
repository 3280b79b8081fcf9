import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '@/lib/admin/audit';
import { isApiError } from '@/lib/errors/api-error';
import { openDatabase } from '@/lib/db/client';
import type { Database } from '@/lib/db';
import {
  adminAudit,
  connections,
  jobLeases,
  mailOutbox,
  mirrorReleasedNoShows,
  mirrorState,
  mirrorUsers,
  portalEvents,
  reservationRequests,
  retentionSettings,
  roomClosures,
  systems,
  webhookEvents,
} from '@/lib/db/schema';
import { describeWithDb } from '@/tests/db';
import { toRequestView } from '@/lib/reservations/lifecycle';
import { ANONYMISED_ACCOUNT, ENGLISH_PLACEHOLDERS } from './anonymise';
import { RETENTION_ACTOR, runRetention, type RetentionDeps, type RetentionRunResult } from './retention';
import { cutoffOf, readRetentionPolicy, saveRetentionSetting } from './retention-settings';

// Pinned: the job's cutoffs come from `now`, never from the wall clock.
const NOW = new Date('2026-06-15T12:00:00.000Z');
const REQUEST_CUTOFF = new Date('2025-05-15T12:00:00.000Z'); // 13 months
const BODY_CUTOFF = new Date('2026-03-17T12:00:00.000Z'); // 90 days
const META_CUTOFF = REQUEST_CUTOFF; // 13 months
const AUDIT_CUTOFF = new Date('2024-06-15T12:00:00.000Z'); // 24 months
const younger = (d: Date) => new Date(d.getTime() + 1);
/** A manager's account that no longer exists. */
const GONE_ACCOUNT = randomUUID();

const PERSONAL = /Anna|anna@example\.com|Maja|Mia|mia@example\.com|Ring her/;
const NO_ENV = { RETENTION_REQUEST_MONTHS: undefined, RETENTION_EMAIL_BODY_DAYS: undefined, RETENTION_EMAIL_META_MONTHS: undefined, RETENTION_AUDIT_MONTHS: undefined };
const ADMIN: Actor = { id: randomUUID(), name: 'Ada Admin' };

/** What a run at NOW changes: one row at each boundary, the e-mail bodies of every message older than 90 days. */
const EXPECTED = {
  reservation_requests: 1,
  portal_events: 1,
  webhook_events: 1,
  room_closures: 1,
  mirror_released_no_shows: 1,
  'mail_outbox.body': 3,
  mail_outbox: 1,
  admin_audit: 1,
};

describe('the cutoff', () => {
  it('is calendar months back in UTC, the day clamped to the month’s end, or days', () => {
    expect(cutoffOf({ amount: 13, unit: 'months' }, NOW)).toEqual(REQUEST_CUTOFF);
    expect(cutoffOf({ amount: 1, unit: 'months' }, new Date('2026-03-31T08:00:00Z'))).toEqual(new Date('2026-02-28T08:00:00Z'));
    expect(cutoffOf({ amount: 90, unit: 'days' }, NOW)).toEqual(BODY_CUTOFF);
  });
});

describeWithDb('retention', (ctx) => {
  const db = () => ctx().handle.db;
  let deviceId: string;
  let groupId: string;
  let userId: string;

  beforeAll(async () => {
    deviceId = randomUUID();
    groupId = randomUUID();
    userId = randomUUID();
    const [connection] = await db().insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning();
    await db().insert(systems).values({ deviceId, connectionId: connection!.id, name: 'Ekhagen' });
    await db().insert(mirrorState).values({ deviceId, generation: 1 });
    await db().insert(mirrorUsers).values({ deviceId, generation: 1, id: userId, name: 'Anna Andersson', email: 'anna@example.com', userGroupId: groupId });
  });

  beforeEach(async () => {
    for (const table of [reservationRequests, portalEvents, webhookEvents, roomClosures, mirrorReleasedNoShows, mailOutbox, adminAudit, jobLeases, retentionSettings]) {
      await db().delete(table);
    }
  });

  const deps = (over: Partial<RetentionDeps> = {}): RetentionDeps => ({
    db: db(),
    placeholders: ENGLISH_PLACEHOLDERS,
    policy: () => readRetentionPolicy(db(), NO_ENV),
    now: () => NOW,
    ...over,
  });

  /** One row of each table at its class's boundary ("old") and one a millisecond younger ("young"). */
  async function seed() {
    const ids: Record<string, { old: string; young: string }> = {};
    const pair = async (name: string, at: Date, insert: (createdAt: Date, tag: string) => Promise<string>) => {
      ids[name] = { old: await insert(at, 'old'), young: await insert(younger(at), 'young') };
    };
    await pair('request', REQUEST_CUTOFF, async (createdAt, tag) => {
      const [row] = await db()
        .insert(reservationRequests)
        .values({
          kind: 'create', deviceId, resourceId: randomUUID(), residentUserId: userId, reservationId: randomUUID(), startTime: createdAt, endTime: createdAt,
          requestedBy: GONE_ACCOUNT, idempotencyKey: `key-${tag}`, status: 'succeeded', residentName: 'Anna Andersson', residentApartment: '1001',
          residentGroupId: groupId, resourceName: 'Tvättstuga 1', requestedByName: 'Maja Manager', note: 'Ring her first', createdAt, updatedAt: createdAt,
          firstAnswer: { status: 409, code: 'conflict', message: 'Anna Andersson already has a booking' },
        })
        .returning({ id: reservationRequests.id });
      return row!.id;
    });
    await pair('event', REQUEST_CUTOFF, async (createdAt) => {
      const data = { id: randomUUID(), residentUserId: userId, requestedBy: GONE_ACCOUNT, residentName: 'Anna Andersson', residentApartment: '1001', requestedByName: 'Maja', note: 'Ring her first', status: 'failed', reason: { key: 'outcomes.refused', values: { name: 'Anna' } } };
      const [row] = await db().insert(portalEvents).values({ deviceId, type: 'request.updated', data, createdAt }).returning({ id: portalEvents.id });
      return String(row!.id);
    });
    await pair('webhook', REQUEST_CUTOFF, async (receivedAt, tag) => {
      const webhookId = `msg_${tag}_${randomUUID()}`;
      const payload = { correlationId: randomUUID(), eventType: 'reservationResult', eventData: { succeeded: true, data: { reservationId: 'r-1', operation: 'create' }, user: { name: 'Anna Andersson', email: 'anna@example.com' } } };
      await db().insert(webhookEvents).values({ webhookId, eventType: 'reservationResult', payload, receivedAt });
      return webhookId;
    });
    await pair('closure', REQUEST_CUTOFF, async (endsAt) => {
      const targets = [{ reservationId: 'r-1', resourceId: 'room-1', startTime: '2025-05-15T08:00:00Z', endTime: '2025-05-15T11:00:00Z', apartment: '1001', residentName: 'Anna Andersson', outcome: { kind: 'failed' as const, key: 'outcomes.refused', values: { name: 'Anna' } } }];
      const [row] = await db()
        .insert(roomClosures)
        .values({ deviceId, resourceIds: [randomUUID()], startsAt: new Date(endsAt.getTime() - 3_600_000), endsAt, reason: 'Anna’s flood', createdByName: 'Maja Manager', targets, status: 'done', createdAt: endsAt })
        .returning({ id: roomClosures.id });
      return row!.id;
    });
    await pair('noShow', REQUEST_CUTOFF, async (startTime) => {
      const id = randomUUID();
      await db().insert(mirrorReleasedNoShows).values({ deviceId, id, resourceId: randomUUID(), userId, ownerId: userId, ownerType: 'User', startTime, endTime: younger(startTime), releasedAt: startTime });
      return id;
    });
    const mail = async (createdAt: Date) => {
      const [row] = await db()
        .insert(mailOutbox)
        .values({
          deviceId, kind: 'booked', reservationId: randomUUID(), recipient: 'anna@example.com', recipientName: 'Anna Andersson', locale: 'sv', status: 'sent', subject: 'Booked for Anna',
          raw: 'To: anna@example.com\r\n\r\nHello Anna', lastError: null, createdAt,
          facts: { systemName: 'Ekhagen', timeZone: 'Europe/Stockholm', resourceId: 'room-1', resourceName: 'Tvättstuga 1', startTime: '2025-05-15T08:00:00Z', endTime: '2025-05-15T11:00:00Z', arrangedBy: 'Maja Manager', residentApartment: '1001' },
        })
        .returning({ id: mailOutbox.id });
      return row!.id;
    };
    ids.mailMeta = { old: await mail(META_CUTOFF), young: await mail(younger(META_CUTOFF)) };
    ids.mailBody = { old: await mail(BODY_CUTOFF), young: await mail(younger(BODY_CUTOFF)) };
    await pair('audit', AUDIT_CUTOFF, async (createdAt) => {
      const [row] = await db()
        .insert(adminAudit)
        .values({ actorId: randomUUID(), actorName: 'Maja Admin', action: 'account.create', targetType: 'account', targetId: randomUUID(), targetName: 'Mia', detail: { email: 'mia@example.com', role: 'manager' }, createdAt })
        .returning({ id: adminAudit.id });
      return String(row!.id);
    });
    return ids;
  }

  /** Every seeded row, as JSON, by name and age. */
  async function rows(ids: Record<string, { old: string; young: string }>) {
    const get = async (name: string, which: 'old' | 'young') => {
      const id = ids[name]![which];
      switch (name) {
        case 'request':
          return (await db().select().from(reservationRequests).where(eq(reservationRequests.id, id)))[0]!;
        case 'event':
          return (await db().select().from(portalEvents).where(eq(portalEvents.id, Number(id))))[0]!;
        case 'webhook':
          return (await db().select().from(webhookEvents).where(eq(webhookEvents.webhookId, id)))[0]!;
        case 'closure':
          return (await db().select().from(roomClosures).where(eq(roomClosures.id, id)))[0]!;
        case 'noShow':
          return (await db().select().from(mirrorReleasedNoShows).where(eq(mirrorReleasedNoShows.id, id)))[0]!;
        case 'audit':
          return (await db().select().from(adminAudit).where(eq(adminAudit.id, Number(id))))[0]!;
        default:
          return (await db().select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
      }
    };
    const out: Record<string, { old: Record<string, unknown>; young: Record<string, unknown> }> = {};
    for (const name of Object.keys(ids)) out[name] = { old: await get(name, 'old'), young: await get(name, 'young') };
    return out;
  }

  const runs = async () => (await db().select().from(adminAudit).where(eq(adminAudit.action, 'retention.run'))).map((e) => (e.detail as { counts: Record<string, number> }).counts);
  const sum = (all: Record<string, number>[]) => {
    const total: Record<string, number> = {};
    for (const counts of all) for (const [k, n] of Object.entries(counts)) total[k] = (total[k] ?? 0) + n;
    return total;
  };

  it('anonymises each class’s rows exactly at its boundary and leaves rows a millisecond younger untouched', async () => {
    const ids = await seed();
    const before = await rows(ids);
    const result = await runRetention(deps());
    expect(result).toMatchObject({ status: 'done', counts: EXPECTED, complete: true });
    const after = await rows(ids);

    // The e-mail a millisecond younger than 13 months lost its body (older than 90 days), not its metadata.
    for (const name of Object.keys(ids)) {
      // The e-mail at the 90-day boundary loses its body only (checked below); every other row at its boundary names no one.
      if (name !== 'mailBody') expect(JSON.stringify(after[name]!.old), `${name} at its boundary`).not.toMatch(PERSONAL);
      if (name === 'mailMeta') continue;
      expect(after[name]!.young, `${name} a millisecond younger`).toEqual(before[name]!.young);
    }
    expect(after.mailMeta!.young).toMatchObject({ recipient: 'anna@example.com', recipientName: 'Anna Andersson', raw: null, subject: null, anonymisedAt: null });
    expect(after.mailBody!.old).toMatchObject({ recipient: 'anna@example.com', raw: null, subject: null, bodyDroppedAt: NOW, anonymisedAt: null });

    // What stays: the apartment's wording for the name, rooms, times, statuses, outcome codes.
    expect(after.request!.old).toMatchObject({ residentName: 'Resident in LGH 1001', residentApartment: '1001', residentGroupId: groupId, residentUserId: null, note: null, requestedByName: null, requestedBy: ANONYMISED_ACCOUNT, idempotencyKey: null, firstAnswer: null, status: 'succeeded', resourceName: 'Tvättstuga 1', anonymisedAt: NOW });
    expect(after.event!.old.data).toMatchObject({ residentName: 'Resident in LGH 1001', residentApartment: '1001', residentUserId: null, note: null, requestedByName: null, status: 'failed', reason: { key: 'outcomes.refused' } });
    expect(after.webhook!.old.payload).toEqual({ correlationId: (before.webhook!.old.payload as { correlationId: string }).correlationId, eventType: 'reservationResult', eventData: { succeeded: true, data: { reservationId: 'r-1', operation: 'create' } } });
    expect(after.closure!.old).toMatchObject({ reason: '–', createdByName: null, status: 'done', targets: [{ reservationId: 'r-1', resourceId: 'room-1', apartment: '1001', outcome: { kind: 'failed', key: 'outcomes.refused' } }] });
    expect(after.noShow!.old).toMatchObject({ userId: null, ownerId: groupId, ownerType: 'Group' });
    expect(after.mailMeta!.old).toMatchObject({ recipient: '(anonymised)', recipientName: 'Resident in LGH 1001', raw: null, subject: null, status: 'sent', facts: { residentApartment: '1001', arrangedBy: null, resourceId: 'room-1' } });
    expect(after.audit!.old).toMatchObject({ actorId: null, actorName: 'Anonymised', action: 'account.create', targetType: 'account', targetId: null, targetName: 'Anonymised', detail: { role: 'manager' } });

    // One audit entry for the run: counts, nothing else.
    const [entry] = await db().select().from(adminAudit).where(eq(adminAudit.action, 'retention.run'));
    expect(entry).toMatchObject({ actorId: null, actorName: RETENTION_ACTOR.name, targetType: 'portal', detail: { counts: EXPECTED, complete: true } });
    const [lease] = await db().select().from(jobLeases);
    expect(lease).toMatchObject({ name: 'retention', leaseUntil: null, lastResult: { counts: EXPECTED, complete: true } });
  });

  it('words the name by the apartment’s number without doubling its “LGH”, in the placeholders’ language, and views give readers no stored name (issue 47)', async () => {
    const make = async (apartment: string | null) => {
      const [row] = await db()
        .insert(reservationRequests)
        .values({
          kind: 'create', deviceId, resourceId: randomUUID(), residentUserId: userId, reservationId: randomUUID(), startTime: REQUEST_CUTOFF, endTime: REQUEST_CUTOFF,
          requestedBy: GONE_ACCOUNT, idempotencyKey: `key-${randomUUID()}`, status: 'succeeded', residentName: 'Anna Andersson', residentApartment: apartment,
          residentGroupId: groupId, resourceName: 'Tvättstuga 1', createdAt: REQUEST_CUTOFF, updatedAt: REQUEST_CUTOFF,
        })
        .returning({ id: reservationRequests.id });
      return row!.id;
    };
    const ids = { lgh: await make('LGH 1001'), lower: await make(' lgh. 1002 '), word: await make('Lägenhet 1003'), bare: await make('1004'), none: await make(null) };
    const swedish = { residentIn: 'Boende i LGH {apartment}', resident: 'Boende', person: 'Anonymiserad', recipient: '(anonymiserad)' };
    await runRetention(deps({ placeholders: swedish }));
    const names = Object.fromEntries(
      await Promise.all(Object.entries(ids).map(async ([key, id]) => [key, (await db().select().from(reservationRequests).where(eq(reservationRequests.id, id)))[0]!] as const)),
    );
    expect(Object.fromEntries(Object.entries(names).map(([key, row]) => [key, row.residentName]))).toEqual({
      lgh: 'Boende i LGH 1001',
      lower: 'Boende i LGH 1002',
      word: 'Boende i LGH 1003',
      bare: 'Boende i LGH 1004',
      none: 'Boende',
    });
    // What pages and the live stream are handed: no stored (default-language) name, and the mark that says why.
    expect(toRequestView(names.lgh!)).toMatchObject({ residentName: null, residentAnonymised: true, residentApartment: 'LGH 1001' });
  });

  it('changes nothing the second time (idempotent), and records no run that changed nothing', async () => {
    const ids = await seed();
    await runRetention(deps());
    const once = await rows(ids);
    const again = await runRetention(deps());
    expect(again).toMatchObject({ status: 'done', counts: {}, complete: true });
    expect(await rows(ids)).toEqual(once);
    expect(await runs()).toHaveLength(1);
  });

  it('resumes where a stopped run left off: each batch is its own, and the counts add up', async () => {
    await seed();
    const first = await runRetention(deps({ batchSize: 1 }), { maxBatches: 3 });
    expect(first).toMatchObject({ status: 'done', counts: { reservation_requests: 1, portal_events: 1 }, complete: false });
    const rest = await runRetention(deps({ batchSize: 1 }));
    expect(rest).toMatchObject({ status: 'done', complete: true });
    expect(sum(await runs())).toEqual(EXPECTED);
  });

  it('runs on one instance at a time: a live lease makes another run wait, an expired one (a crashed holder) is taken over', async () => {
    await seed();
    await db().insert(jobLeases).values({ name: 'retention', holder: 'crashed', leaseUntil: sql`now() + interval '1 hour'` });
    expect(await runRetention(deps())).toEqual({ status: 'busy' });
    expect(await runs()).toEqual([]);
    await db().update(jobLeases).set({ leaseUntil: sql`now() - interval '1 second'` });
    expect(await runRetention(deps())).toMatchObject({ status: 'done', counts: EXPECTED });
  });

  it('two runners started together (two instances on PostgreSQL) change each row once, and their audited counts add up', async () => {
    const ids = await seed();
    // A second instance: its own connection pool on PostgreSQL; PGlite is one process, so the same handle.
    const second = ctx().kind === 'postgres' ? await openDatabase(ctx().options) : undefined;
    try {
      const otherDb: Database = second?.db ?? db();
      const results: RetentionRunResult[] = await Promise.all([runRetention(deps({ batchSize: 1 })), runRetention(deps({ db: otherDb, batchSize: 1 }))]);
      const done = results.filter((r) => r.status === 'done');
      expect(done.length).toBeGreaterThan(0);
      expect(sum(done.map((r) => (r.status === 'done' ? r.counts : {})))).toEqual(EXPECTED);
      expect(sum(await runs())).toEqual(EXPECTED);
      const after = await rows(ids);
      for (const name of Object.keys(ids)) if (name !== 'mailBody') expect(JSON.stringify(after[name]!.old), name).not.toMatch(PERSONAL);
      // Each row's mark was written once, by the run that changed it.
      expect(after.request!.old.anonymisedAt).toEqual(NOW);
    } finally {
      await second?.close();
    }
  });

  it('follows the periods it is given: an admin’s shorter one anonymises younger rows', async () => {
    const ids = await seed();
    await saveRetentionSetting(db(), ADMIN, NO_ENV, 'request-13m', '12');
    const result = await runRetention(deps());
    expect(result).toMatchObject({ status: 'done', counts: { reservation_requests: 2, portal_events: 2 } });
    expect((await rows(ids)).request!.young).toMatchObject({ residentName: 'Resident in LGH 1001', note: null });
  });

  it('refuses a bad period with a sentence and changes nothing', async () => {
    const bad: [string, string, string][] = [
      ['request-13m', '0', 'errors.retentionOutOfRange'],
      ['request-13m', '121', 'errors.retentionOutOfRange'],
      ['request-13m', '1.5', 'errors.retentionOutOfRange'],
      ['request-13m', 'thirteen', 'errors.retentionOutOfRange'],
      ['request-13m', '-3', 'errors.retentionOutOfRange'],
      ['email-body-90d', '6', 'errors.retentionOutOfRange'],
      ['email-body-90d', '3651', 'errors.retentionOutOfRange'],
      ['account-lifetime', '12', 'errors.retentionUnknownClass'],
    ];
    for (const [retentionClass, input, key] of bad) {
      const error = await saveRetentionSetting(db(), ADMIN, NO_ENV, retentionClass, input).catch((e: unknown) => e);
      expect(isApiError(error) && error.code === 'bad_request' && error.text.key, `${retentionClass} ${input}`).toBe(key);
    }
    expect(await db().select().from(retentionSettings)).toEqual([]);
    expect(await db().select().from(adminAudit)).toEqual([]);
  });

  it('takes an admin’s period over the environment’s over the default, and audits each change from → to', async () => {
    const env = { ...NO_ENV, RETENTION_EMAIL_BODY_DAYS: 30 };
    expect((await readRetentionPolicy(db(), env))['email-body-90d']).toMatchObject({ amount: 30, unit: 'days', source: 'environment' });
    expect((await readRetentionPolicy(db(), env))['audit-24m']).toMatchObject({ amount: 24, unit: 'months', source: 'default' });
    expect(await saveRetentionSetting(db(), ADMIN, env, 'email-body-90d', ' 14 ')).toMatchObject({ amount: 14, source: 'admin' });
    expect(await saveRetentionSetting(db(), ADMIN, env, 'email-body-90d', '14')).toMatchObject({ amount: 14, source: 'admin' });
    expect(await saveRetentionSetting(db(), ADMIN, env, 'email-body-90d', '')).toMatchObject({ amount: 30, source: 'environment' });
    const entries = await db().select().from(adminAudit).orderBy(adminAudit.id);
    expect(entries.map((e) => [e.action, e.actorName, e.detail])).toEqual([
      ['retention.settings', 'Ada Admin', { retentionClass: 'email-body-90d', unit: 'days', from: 30, to: 14, fromSource: 'environment', toSource: 'admin' }],
      ['retention.settings', 'Ada Admin', { retentionClass: 'email-body-90d', unit: 'days', from: 14, to: 30, fromSource: 'admin', toSource: 'environment' }],
    ]);
  });
});
