import { randomBytes, randomUUID } from 'node:crypto';
import { renderApiError, type ApiError } from '@/lib/errors/api-error';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createUser, setManagerSystems } from '@/lib/auth/users';
import { connections, managerSystems, reservationRequests, systems } from '@/lib/db/schema';
import { claimRefresh, claimRefreshWith, completeRefresh, insertPage, readResources, readState } from '@/lib/mirror/store';
import { connectApproval } from '@/lib/systems/connect';
import { getSystem, readMailSettings, readResourceKinds, readSystemApiKey } from '@/lib/systems/store';
import { describeWithDb } from '@/tests/db';
import { listAudit, recordConnectAudit } from './audit';
import { disconnectSystem, setResourceKind, updateSystemMailSettings, updateSystemRequestBudget, updateSystemSettings } from './systems';
import { removeRuleGroup, setRuleGroup } from './booking-rules';
import { readBookingRules } from '@/lib/systems/booking-rules';
import { readRequestBudgets } from '@/lib/systems/store';
import { requestBudgetSchema } from '@/lib/systems/schemas';

const encryptionKey = randomBytes(32);

describeWithDb('admin system actions', (ctx) => {
  const db = () => ctx().handle.db;
  const a = randomUUID();
  const b = randomUUID();
  let admin = { id: '', name: 'Ada Admin' };
  let managerId = '';

  it('records a connect in the transaction that stores the systems, never the approval id', async () => {
    const user = await createUser(db(), { email: 'ada@example.com', name: 'Ada Admin', role: 'admin' });
    admin = { id: user.id, name: user.name };
    const approval = randomUUID();
    await connectApproval(db(), approval, {
      generate: () => Promise.resolve({ apiKey: 'key-1', deviceIds: [a, b] }),
      encryptionKey,
      names: new Map([[a, 'Ekhagen'], [b, 'Flogsta']]),
      createdBy: admin.id,
      afterStore: (tx, stored) => recordConnectAudit(tx, admin, stored),
    });
    const { entries } = await listAudit(db(), 1);
    expect(entries.map((e) => [e.action, e.targetName, e.actorName]).sort()).toEqual([
      ['system.connect', 'Ekhagen', 'Ada Admin'],
      ['system.connect', 'Flogsta', 'Ada Admin'],
    ]);
    expect(JSON.stringify(entries)).not.toContain(approval);

    // An audit write that fails takes the connection down with it: both or neither.
    const c = randomUUID();
    await expect(
      connectApproval(db(), randomUUID(), {
        generate: () => Promise.resolve({ apiKey: 'key-2', deviceIds: [c] }),
        encryptionKey,
        afterStore: () => Promise.reject(new Error('audit down')),
      }),
    ).rejects.toThrow('audit down');
    expect(await db().select().from(systems).where(eq(systems.deviceId, c))).toEqual([]);
  });

  it('sets a system\u2019s own request budget within the owner\u2019s allowance, audited; empty is the default again', async () => {
    const limits = { defaultPerHour: 2400, allowedPerHour: 9600 };
    await expect(updateSystemRequestBudget(db(), admin, a, 12_000, limits)).rejects.toMatchObject({ code: 'unprocessable_entity' });
    // By default the allowance is the default itself: an admin may only lower it.
    await expect(updateSystemRequestBudget(db(), admin, a, 4800, { defaultPerHour: 2400, allowedPerHour: 2400 })).rejects.toMatchObject({ code: 'unprocessable_entity' });
    expect(await readRequestBudgets(db())).toEqual(new Map());
    expect(await updateSystemRequestBudget(db(), admin, a, 4800, limits)).toEqual({ name: 'Ekhagen', perHour: 4800 });
    expect(await readRequestBudgets(db())).toEqual(new Map([[a, 4800]]));
    const [entry] = (await listAudit(db(), 1)).entries;
    expect(entry).toMatchObject({ action: 'system.update', targetId: a, detail: { requestBudgetPerHour: { from: null, to: 4800 } } });
    expect(await updateSystemRequestBudget(db(), admin, a, null, limits)).toEqual({ name: 'Ekhagen', perHour: 2400 });
    expect(await readRequestBudgets(db())).toEqual(new Map());
    // The form's field: a whole number from 1, or empty.
    expect(requestBudgetSchema.parse('')).toBeNull();
    expect(requestBudgetSchema.parse('3600')).toBe(3600);
    expect(requestBudgetSchema.safeParse('0').success).toBe(false);
    expect(requestBudgetSchema.safeParse('1.5').success).toBe(false);
  });

  it('records setting changes with before and after; an unchanged save records nothing', async () => {
    await updateSystemSettings(db(), admin, a, { timeZone: 'Europe/Helsinki', bookingHorizonDays: 14, name: 'Ekhagen' });
    const [entry] = (await listAudit(db(), 1)).entries;
    expect(entry).toMatchObject({
      action: 'system.update',
      targetId: a,
      targetName: 'Ekhagen',
      detail: { timeZone: { from: 'Europe/Stockholm', to: 'Europe/Helsinki' }, bookingHorizonDays: { from: 28, to: 14 } },
    });
    const total = (await listAudit(db(), 1)).total;
    await updateSystemSettings(db(), admin, a, { timeZone: 'Europe/Helsinki' });
    await expect(updateSystemSettings(db(), admin, randomUUID(), { name: 'X' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await listAudit(db(), 1)).total).toBe(total);
    // Street, city and area are settings like the others, recorded before and after.
    await updateSystemSettings(db(), admin, a, { street: 'Storgatan 1', city: 'Uppsala', area: null });
    expect((await listAudit(db(), 1)).entries[0]).toMatchObject({ action: 'system.update', detail: { street: { from: null, to: 'Storgatan 1' }, city: { from: null, to: 'Uppsala' } } });
    expect(await getSystem(db(), a)).toMatchObject({ street: 'Storgatan 1', city: 'Uppsala', area: null });
  });

  it('sets the bookings per apartment and room, recorded in the audit log', async () => {
    await updateSystemSettings(db(), admin, b, { bookingQuota: 3 });
    expect((await getSystem(db(), b))?.bookingQuota).toBe(3);
    expect((await listAudit(db(), 1)).entries[0]).toMatchObject({ action: 'system.update', targetId: b, detail: { bookingQuota: { from: 2, to: 3 } } });
  });

  it('turns resident e-mail off and sets its language, recorded with before and after; an unchanged save records nothing', async () => {
    expect((await readMailSettings(db())).get(b)).toEqual({ residentMail: true, mailLocale: 'sv' });
    await updateSystemMailSettings(db(), admin, b, { residentMail: false, mailLocale: 'en' });
    expect((await readMailSettings(db())).get(b)).toEqual({ residentMail: false, mailLocale: 'en' });
    expect((await listAudit(db(), 1)).entries[0]).toMatchObject({ action: 'system.update', targetId: b, detail: { residentMail: { from: 'true', to: 'false' }, mailLocale: { from: 'sv', to: 'en' } } });
    const total = (await listAudit(db(), 1)).total;
    await updateSystemMailSettings(db(), admin, b, { residentMail: false, mailLocale: 'en' });
    expect((await listAudit(db(), 1)).total).toBe(total);
    await expect(updateSystemMailSettings(db(), admin, randomUUID(), { residentMail: true, mailLocale: 'sv' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it("sets a room's kind (or back to the guess), recorded with before and after; an unknown room is a 404", async () => {
    const claim = await claimRefreshWith(db(), b, 60);
    if (!claim) throw new Error('lease held');
    const generation = claim.generation + 1;
    const room = randomUUID();
    await insertPage(db(), 'resources', b, generation, [{ id: room, name: 'Tvättstuga 2', description: '', timeScheduleId: randomUUID() }]);
    await completeRefresh(db(), b, claim.refreshId, generation, new Date(), 1);
    expect(await setResourceKind(db(), admin, b, room, 'drying')).toEqual({ resourceName: 'Tvättstuga 2', kind: 'drying', guessed: false });
    expect((await readResourceKinds(db(), b)).get(room)).toBe('drying');
    expect((await listAudit(db(), 1)).entries[0]).toMatchObject({
      action: 'system.resource-kind',
      targetId: b,
      targetName: 'Flogsta',
      detail: { resourceId: room, resourceName: 'Tvättstuga 2', from: 'laundry', to: 'drying' },
    });
    const total = (await listAudit(db(), 1)).total;
    await setResourceKind(db(), admin, b, room, 'drying');
    expect((await listAudit(db(), 1)).total).toBe(total);
    expect(await setResourceKind(db(), admin, b, room, null)).toEqual({ resourceName: 'Tvättstuga 2', kind: 'laundry', guessed: true });
    expect((await readResourceKinds(db(), b)).has(room)).toBe(false);
    expect((await listAudit(db(), 1)).entries[0]).toMatchObject({ detail: { from: 'drying', to: null } });
    await expect(setResourceKind(db(), admin, b, randomUUID(), 'other')).rejects.toMatchObject({ code: 'not_found' });
    await expect(setResourceKind(db(), admin, randomUUID(), room, 'other')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('states booking rules by group of rooms: its own rooms, each in one group, every change audited; bad input changes nothing (issue 35)', async () => {
    // A system of its own, so that the disconnect test below finds a's mirror as it left it.
    const c = randomUUID();
    const [connection] = await db().insert(connections).values({ approvalFingerprint: randomUUID(), apiKeyCiphertext: 'x' }).returning({ id: connections.id });
    await db().insert(systems).values({ deviceId: c, connectionId: connection!.id, name: 'Gottsunda' });
    const claim = await claimRefreshWith(db(), c, 60);
    if (!claim) throw new Error('lease held');
    const generation = claim.generation + 1;
    const [t1, t4, t5] = [randomUUID(), randomUUID(), randomUUID()];
    await insertPage(db(), 'resources', c, generation, [t1, t4, t5].map((id, i) => ({ id, name: `Tvättstuga ${[1, 4, 5][i]}`, description: '', timeScheduleId: randomUUID() })));
    await completeRefresh(db(), c, claim.refreshId, generation, new Date(), 1);
    const shared = { resourceIds: [t1, t4, t5], perWindow: { count: 4, days: 7 }, maxFuture: 2, daysAhead: 30 };
    expect((await setRuleGroup(db(), admin, c, null, shared)).rules.groups).toHaveLength(1);
    expect((await listAudit(db(), 1)).entries[0]).toMatchObject({ action: 'system.booking-rules', targetId: c, detail: { from: null, to: { resourceIds: [t1, t4, t5], maxFuture: 2 } } });
    const before = await readBookingRules(db(), c);
    const total = (await listAudit(db(), 1)).total;
    for (const [index, group, reason] of [
      [null, { ...shared, resourceIds: [t4] }, 'ruleGroupOverlap'],
      [null, { ...shared, resourceIds: [] }, 'ruleGroupInvalid'],
      [null, { ...shared, perWindow: { count: 0, days: 7 } }, 'ruleGroupInvalid'],
      [null, { ...shared, resourceIds: [randomUUID()] }, 'noSuchRoom'],
      [5, shared, 'ruleGroupGone'],
    ] as const) {
      await expect(setRuleGroup(db(), admin, c, index, group)).rejects.toMatchObject({ reason });
    }
    const overlap = (await setRuleGroup(db(), admin, c, null, { ...shared, resourceIds: [t4] }).catch((e: unknown) => e)) as ApiError;
    expect(await renderApiError(overlap, 'en')).toBe('A room can belong to one rule group only: remove it from its other group first.');
    expect(await readBookingRules(db(), c)).toEqual(before);
    expect((await listAudit(db(), 1)).total).toBe(total);

    // Changed in place, then removed: the rooms go back to the quota per room.
    await setRuleGroup(db(), admin, c, 0, { ...shared, maxFuture: 1 });
    expect((await readBookingRules(db(), c))?.groups[0]?.maxFuture).toBe(1);
    await removeRuleGroup(db(), admin, c, 0);
    expect(await readBookingRules(db(), c)).toBeNull();
    expect((await listAudit(db(), 1)).entries.slice(0, 2).map((e) => e.detail)).toMatchObject([{ from: { maxFuture: 1 }, to: null }, { from: { maxFuture: 2 }, to: { maxFuture: 1 } }]);
    await expect(removeRuleGroup(db(), admin, c, 0)).rejects.toMatchObject({ code: 'not_found' });
    await db().delete(connections).where(eq(connections.id, connection!.id)); // its system (and rules) cascade
  });

  it('refuses to disconnect while a booking request waits for its outcome, changing nothing', async () => {
    const manager = await createUser(db(), { email: 'max@example.com', name: 'Max', role: 'manager' });
    managerId = manager.id;
    await setManagerSystems(db(), managerId, [a, b]);
    await db().insert(reservationRequests).values({ kind: 'create', deviceId: a, requestedBy: managerId, requestedByName: 'Max', status: 'pending' });
    const refused = (await disconnectSystem(db(), admin, a).catch((e: unknown) => e)) as ApiError;
    expect(refused).toMatchObject({ code: 'conflict', reason: 'disconnectWhileWaiting' });
    expect(await renderApiError(refused, 'en')).toBe("Ekhagen has 1 booking request still waiting for the service's answer. Disconnect it once it is settled; nothing was changed.");
    expect(await renderApiError(refused, 'sv')).toBe('Ekhagen har 1 bokningsförfrågan som fortfarande väntar på svar från tjänsten. Koppla från systemet när den är klar; inget ändrades.');
    expect(await db().select().from(systems).where(eq(systems.deviceId, a))).toHaveLength(1);
    expect((await listAudit(db(), 1)).entries[0]?.action).not.toBe('system.disconnect');
  });

  it('disconnects: mirror, assignments and the system go; the key goes with the last system of its approval; history stays', async () => {
    await db().update(reservationRequests).set({ status: 'succeeded' }).where(eq(reservationRequests.deviceId, a));
    const generation = await claimRefresh(db(), a, 60);
    expect(generation).not.toBeNull();
    await insertPage(db(), 'resources', a, generation ?? 0, [{ id: randomUUID(), name: 'Tvättstuga 1', description: '', timeScheduleId: randomUUID() }]);

    const count = async () => (await ctx().handle.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM mirror_resources WHERE device_id = $1', [a])).rows[0]?.n;
    expect(await count()).toBe(1);

    const first = await disconnectSystem(db(), admin, a);
    expect(first).toMatchObject({ system: { deviceId: a, name: 'Ekhagen' }, unassigned: 1 });
    expect(await db().select().from(systems).where(eq(systems.deviceId, a))).toEqual([]);
    expect(await readState(db(), a)).toBeNull();
    expect(await readResources(db(), a)).toEqual([]);
    expect(await count()).toBe(0);
    expect(await db().select().from(managerSystems).where(eq(managerSystems.userId, managerId))).toEqual([{ userId: managerId, deviceId: b }]);
    // b still uses the approval's key.
    expect(await readSystemApiKey(db(), b, encryptionKey)).toBe('key-1');
    expect(await db().select().from(reservationRequests).where(eq(reservationRequests.deviceId, a))).toHaveLength(1);
    expect((await listAudit(db(), 1)).entries[0]).toMatchObject({
      action: 'system.disconnect',
      targetId: a,
      targetName: 'Ekhagen',
      actorName: 'Ada Admin',
      detail: { unassignedManagers: 1, apiKeyRemoved: false },
    });

    await disconnectSystem(db(), admin, b);
    expect(await db().select().from(connections)).toEqual([]);
    expect((await listAudit(db(), 1)).entries[0]).toMatchObject({ action: 'system.disconnect', targetName: 'Flogsta', detail: { apiKeyRemoved: true } });
    await expect(disconnectSystem(db(), admin, b)).rejects.toMatchObject({ code: 'not_found' });
  });
});
