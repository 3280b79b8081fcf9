import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { managerSystems } from '@/lib/db/schema';
import { storeConnection } from '@/lib/systems/store';
import { countingDb, describeWithDb } from '@/tests/db';
import { systemsWithKeysRead } from '@/lib/systems/store';
import { checkSystemAccess, forgetHeldViewers, readAsViewer, readHeldSystemViewer, readSystemViewer, VIEWER_HOLD_MS, visibleTo } from './access';
import { bumpSessionVersion, createUser, findUserById, setManagerSystems } from './users';

describeWithDb('the signed-in user and their system in one statement', (ctx) => {
  const mine = randomUUID();
  const other = randomUUID();
  const unknown = randomUUID();
  const ids = { admin: '', manager: '' };
  beforeAll(async () => {
    const db = ctx().handle.db;
    await storeConnection(db, { approvalId: randomUUID(), apiKey: 'k', deviceIds: [mine, other], encryptionKey: randomBytes(32) });
    ids.admin = (await createUser(db, { email: 'ada@example.com', name: 'Ada', role: 'admin' })).id;
    ids.manager = (await createUser(db, { email: 'max@example.com', name: 'Max', role: 'manager' })).id;
    await setManagerSystems(db, ids.manager, [mine]);
  });
  const tokenOf = async (uid: string) => ({ uid, sv: (await findUserById(ctx().handle.db, uid))?.sessionVersion });

  it('answers as requireUser and requireSystemAccess would, with one statement', async () => {
    const { db, queries } = await countingDb(ctx().handle);
    const manager = await tokenOf(ids.manager);
    const viewer = await readSystemViewer(db, manager, mine);
    expect(queries()).toBe(1);
    expect(viewer.user).toMatchObject({ id: ids.manager, role: 'manager', name: 'Max' });
    expect(viewer.system).toEqual(await checkSystemAccess(db, viewer.user, mine));
    // Another system, existing or not: the same 403 for a manager; an admin sees any and gets 404 for none.
    await expect(readSystemViewer(db, manager, other)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(readSystemViewer(db, manager, unknown)).rejects.toMatchObject({ code: 'forbidden' });
    const admin = await tokenOf(ids.admin);
    expect((await readSystemViewer(db, admin, other)).system.deviceId).toBe(other);
    await expect(readSystemViewer(db, admin, unknown)).rejects.toMatchObject({ code: 'not_found' });
  });

  it("reads on the viewer's behalf in the same statement, scoped to the systems they may see", async () => {
    const { db, queries } = await countingDb(ctx().handle);
    const reads = (userId: string) => ({ systems: systemsWithKeysRead(visibleTo(userId), randomBytes(32)) });
    const manager = await readAsViewer(db, await tokenOf(ids.manager), reads);
    expect(queries()).toBe(1);
    expect(manager.user.id).toBe(ids.manager);
    expect(manager.systems.systems.map((s) => s.deviceId)).toEqual([mine]);
    const admin = await readAsViewer(db, await tokenOf(ids.admin), reads);
    expect(admin.systems.systems.map((s) => s.deviceId).sort()).toEqual([mine, other].sort());
    await expect(readAsViewer(db, { uid: ids.manager, sv: -1 }, reads)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('says "sign in" without a token, for another session version, and for an account gone', async () => {
    const db = ctx().handle.db;
    await expect(readSystemViewer(db, null, mine)).rejects.toMatchObject({ code: 'unauthorized' });
    const before = await tokenOf(ids.manager);
    await bumpSessionVersion(db, ids.manager);
    await expect(readSystemViewer(db, before, mine)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(readSystemViewer(db, { uid: randomUUID(), sv: 0 }, mine)).rejects.toMatchObject({ code: 'unauthorized' });
    // An unassigned system stops being visible at once.
    await setManagerSystems(db, ids.manager, []);
    await expect(readSystemViewer(db, await tokenOf(ids.manager), mine)).rejects.toMatchObject({ code: 'forbidden' });
  });
});

describeWithDb('a viewer held for VIEWER_HOLD_MS (the grid week route)', (ctx) => {
  const mine = randomUUID();
  let manager = '';
  beforeAll(async () => {
    const db = ctx().handle.db;
    await storeConnection(db, { approvalId: randomUUID(), apiKey: 'k', deviceIds: [mine], encryptionKey: randomBytes(32) });
    manager = (await createUser(db, { email: 'hold@example.com', name: 'Hilda', role: 'manager' })).id;
    await setManagerSystems(db, manager, [mine]);
  });
  const tokenOf = async (uid: string) => ({ uid, sv: (await findUserById(ctx().handle.db, uid))?.sessionVersion });

  it('reuses a decided viewer, and refuses a removed assignment once the hold has passed', async () => {
    const { db, queries } = await countingDb(ctx().handle);
    const token = await tokenOf(manager);
    const first = await readHeldSystemViewer(db, token, mine);
    expect(first.system.deviceId).toBe(mine);
    const before = queries();
    // Held: no statement at all without reads of the caller's own.
    expect((await readHeldSystemViewer(db, token, mine)).user.id).toBe(manager);
    expect(queries()).toBe(before);
    // The assignment goes on another instance (no notice reaches this handle's hold): refused
    // at the latest when the hold ends.
    await ctx().handle.db.delete(managerSystems).where(eq(managerSystems.userId, manager));
    await new Promise((resolve) => setTimeout(resolve, VIEWER_HOLD_MS + 50));
    await expect(readHeldSystemViewer(db, token, mine)).rejects.toMatchObject({ code: 'forbidden' });
    await setManagerSystems(ctx().handle.db, manager, [mine]);
  });

  it("runs the caller's reads when held, and forgets on an access notice at once", async () => {
    const { db, queries } = await countingDb(ctx().handle);
    const reads = (userId: string) => ({ systems: systemsWithKeysRead(visibleTo(userId), randomBytes(32)) });
    const token = await tokenOf(manager);
    await readHeldSystemViewer(db, token, mine, reads);
    const before = queries();
    const held = await readHeldSystemViewer(db, token, mine, reads);
    expect(queries()).toBe(before + 1);
    expect(held.systems.systems.map((s) => s.deviceId)).toEqual([mine]);
    // Signed out everywhere: what the access notice's listener does (lib/api/viewer.ts) refuses at once.
    await bumpSessionVersion(ctx().handle.db, manager);
    forgetHeldViewers(db);
    await expect(readHeldSystemViewer(db, token, mine, reads)).rejects.toMatchObject({ code: 'unauthorized' });
    // A refusal is never held: the new session is let in.
    expect((await readHeldSystemViewer(db, await tokenOf(manager), mine, reads)).user.id).toBe(manager);
  });
});

