import { randomUUID } from 'node:crypto';
import { createTranslator } from 'next-intl';
import { and, count, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { addManagerSystemsWhere, createUser, findUserById, removeManagerSystemsWhere } from '@/lib/auth/users';
import { connections, managerSystems, systems } from '@/lib/db/schema';
import { currentStreamAccess } from '@/lib/events/stream-access';
import { selectionWhere, systemSelectionSchema } from '@/lib/systems/selection';
import { countingDb, describeWithDb } from '@/tests/db';
import en from '@/messages/en.json';
import sv from '@/messages/sv.json';
import { changeManagerSystems, listAccounts, previewManagerSystems } from './accounts';
import { listAudit } from './audit';
import { describeAuditEntry } from './audit-wording';

const select = (input: Record<string, unknown>) => systemSelectionSchema.parse(input);

describeWithDb('giving a manager many systems at once (issue 49)', (ctx) => {
  const db = () => ctx().handle.db;
  const admin = { id: null, name: 'Test admin' };
  let connectionId = '';
  let otherConnection = '';

  async function assignedCount(userId: string) {
    const [row] = await db().select({ n: count() }).from(managerSystems).where(eq(managerSystems.userId, userId));
    return row?.n ?? 0;
  }

  it('seeds 1,000 systems in two connections and three areas', async () => {
    const [a, b] = await db()
      .insert(connections)
      .values([
        { approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' },
        { approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' },
      ])
      .returning({ id: connections.id });
    connectionId = a!.id;
    otherConnection = b!.id;
    // 1,000 systems: 312 in Norr, 388 in Söder, 300 without an area; the first 600 in one connection.
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      deviceId: randomUUID(),
      connectionId: i < 600 ? connectionId : otherConnection,
      name: `Brf ${String(i).padStart(4, '0')}`,
      street: i % 10 === 0 ? `Storgatan ${i}` : `Lillgatan ${i}`,
      city: 'Uppsala',
      area: i < 312 ? 'Norr' : i < 700 ? 'Söder' : null,
    }));
    await db().insert(systems).values(rows);
    expect((await db().select({ n: count() }).from(systems))[0]?.n).toBe(1000);
  });

  it('gives a manager every system of an area, counted first; again changes nothing and records nothing', async () => {
    const anna = await createUser(db(), { email: 'anna@example.com', name: 'Anna', role: 'manager' });
    expect(await previewManagerSystems(db(), anna.id, select({ area: 'Norr' }))).toMatchObject({ manager: { name: 'Anna' }, matching: 312, assigned: 0 });
    const before = (await listAudit(db(), 1)).total;

    const given = await changeManagerSystems(db(), admin, anna.id, select({ area: 'norr' }), 'assign');
    expect(given).toMatchObject({ matching: 312, changed: 312, manager: { id: anna.id, name: 'Anna' } });
    expect(await assignedCount(anna.id)).toBe(312);
    // The manager's open streams follow at once: their access is the new set.
    const version = (await findUserById(db(), anna.id))?.sessionVersion ?? -1;
    expect(((await currentStreamAccess(db(), anna.id, version)) as { deviceIds: string[] }).deviceIds).toHaveLength(312);

    const audit = await listAudit(db(), 1);
    expect(audit.total).toBe(before + 1);
    expect(audit.entries[0]).toMatchObject({
      action: 'account.systems-bulk',
      actorName: 'Test admin',
      targetId: anna.id,
      targetName: 'Anna',
      detail: { change: 'assign', count: 312, matching: 312, selection: { area: 'norr' } },
    });
    const entry = audit.entries[0]!;
    expect(describeAuditEntry(entry, createTranslator({ locale: 'en', messages: en, namespace: 'audit.entry' }), 'en')).toBe('Gave Anna 312 systems: area norr.');
    expect(describeAuditEntry(entry, createTranslator({ locale: 'sv', messages: sv, namespace: 'audit.entry' }), 'sv')).toBe('Gav Anna 312 system: område norr.');

    // Idempotent: nothing new, no entry.
    expect(await changeManagerSystems(db(), admin, anna.id, select({ area: 'Norr' }), 'assign')).toMatchObject({ matching: 312, changed: 0 });
    expect((await listAudit(db(), 1)).total).toBe(before + 1);
    expect(await previewManagerSystems(db(), anna.id, select({ area: 'Norr' }))).toMatchObject({ matching: 312, assigned: 312 });

    // A wider set adds only what is new: the whole connection (600) of which 312 were already hers.
    expect(await changeManagerSystems(db(), admin, anna.id, select({ connectionId }), 'assign')).toMatchObject({ matching: 600, changed: 288 });
    expect(await assignedCount(anna.id)).toBe(600);

    // Taken back the same way: text in the street within the connection, then the rest of it.
    expect(await changeManagerSystems(db(), admin, anna.id, select({ connectionId, match: 'STORGATAN' }), 'unassign')).toMatchObject({ matching: 60, changed: 60 });
    expect(await changeManagerSystems(db(), admin, anna.id, select({ connectionId, match: 'STORGATAN' }), 'unassign')).toMatchObject({ changed: 0 });
    expect(await changeManagerSystems(db(), admin, anna.id, select({ all: true }), 'unassign')).toMatchObject({ matching: 1000, changed: 540 });
    expect(await assignedCount(anna.id)).toBe(0);
    const last = (await listAudit(db(), 1)).entries.slice(0, 2);
    expect(last.map((e) => e.detail)).toEqual([
      { change: 'unassign', count: 540, matching: 1000, selection: { all: true } },
      { change: 'unassign', count: 60, matching: 60, selection: { match: 'STORGATAN', approval: true } },
    ]);
    const t = createTranslator({ locale: 'en', messages: en, namespace: 'audit.entry' });
    expect(last.map((e) => describeAuditEntry(e, t, 'en'))).toEqual([
      'Took 540 systems back from Anna: all systems.',
      'Took 60 systems back from Anna: matching “STORGATAN” and one approval’s systems.',
    ]);
  });

  it('gives all 1,000 systems in one statement (and the access notice), whatever the count', async () => {
    const bo = await createUser(db(), { email: 'bo@example.com', name: 'Bo', role: 'manager' });
    const counting = await countingDb(ctx().handle);
    const added = await addManagerSystemsWhere(counting.db, bo.id, selectionWhere(select({ all: true })));
    expect(added).toBe(1000);
    expect(counting.queries()).toBe(2); // INSERT … SELECT, then pg_notify
    expect(await assignedCount(bo.id)).toBe(1000);
    const removed = await removeManagerSystemsWhere(counting.db, bo.id, selectionWhere(select({ area: 'Söder' })));
    expect(removed).toBe(388);
    expect(counting.queries()).toBe(4);
    // Nothing to take back: one statement and no notice.
    expect(await removeManagerSystemsWhere(counting.db, bo.id, selectionWhere(select({ area: 'Söder' })))).toBe(0);
    expect(counting.queries()).toBe(5);
    // Another manager's systems are untouched by Bo's.
    expect(await assignedCount(bo.id)).toBe(612);

    // The whole change through the admin function: a handful of statements, not one per system.
    const whole = await countingDb(ctx().handle);
    const result = await changeManagerSystems(whole.db, admin, bo.id, select({ all: true }), 'assign');
    expect(result).toMatchObject({ changed: 388, matching: 1000 });
    expect(whole.queries()).toBeLessThanOrEqual(7); // lock, insert, notify, count, audit, and BEGIN and COMMIT where the driver logs them
  });

  it('gives systems to managers only: an admin is refused with a sentence, an unknown account is 404; nothing changes', async () => {
    const root = await createUser(db(), { email: 'root@example.com', name: 'Root', role: 'admin' });
    const before = (await listAudit(db(), 1)).total;
    await expect(changeManagerSystems(db(), admin, root.id, select({ all: true }), 'assign')).rejects.toMatchObject({ code: 'bad_request', reason: 'assignToManagersOnly' });
    await expect(changeManagerSystems(db(), admin, randomUUID(), select({ all: true }), 'assign')).rejects.toMatchObject({ code: 'not_found', reason: 'noSuchManager' });
    await expect(previewManagerSystems(db(), randomUUID(), select({ all: true }))).rejects.toMatchObject({ code: 'not_found' });
    await expect(previewManagerSystems(db(), root.id, select({ all: true }))).rejects.toMatchObject({ code: 'bad_request' });
    expect(await assignedCount(root.id)).toBe(0);
    expect((await listAudit(db(), 1)).total).toBe(before);
  });

  it('lists accounts with their number of systems, one row each', async () => {
    const accounts = await listAccounts(db());
    expect(accounts.map((a) => [a.name, a.role, a.systemCount])).toEqual([
      ['Root', 'admin', 0],
      ['Anna', 'manager', 0],
      ['Bo', 'manager', 1000],
    ]);
    const [row] = await db()
      .select({ n: count() })
      .from(managerSystems)
      .where(and(eq(managerSystems.userId, accounts[2]!.id)));
    expect(row?.n).toBe(1000);
  });
});
