import { getServerSession } from 'next-auth';
import { encode } from 'next-auth/jwt';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { currentStreamAccess } from '@/lib/events/stream-access';
import { verifyCredentials } from '@/lib/auth/credentials';
import { createAuthOptions } from '@/lib/auth/options';
import { hashPassword } from '@/lib/auth/passwords';
import { createSignInThrottle } from '@/lib/auth/throttle';
import { createUser, findUserById } from '@/lib/auth/users';
import { reservationRequests } from '@/lib/db/schema';
import { describeWithDb } from '@/tests/db';
import { assignManagerSystems, createAccount, deactivateAccount, deleteAccount, listAccounts, reactivateAccount, resetManagerPassword } from './accounts';
import { listAudit } from './audit';

const SECRET = 'test-secret-test-secret-test-secret-42';
const COOKIE = 'next-auth.session-token';
const PASSWORD = 'a-long-password-9';

describeWithDb('admin account actions', (ctx) => {
  const db = () => ctx().handle.db;
  const options = () => createAuthOptions({ authSecret: SECRET, database: () => Promise.resolve(db()), throttle: () => Promise.resolve(createSignInThrottle(db())) });
  async function sessionOf(user: { id: string; email: string; name: string; role: 'admin' | 'manager' }, sv: number): Promise<{ user?: { id: string } }> {
    const token = await encode({ secret: SECRET, token: { uid: user.id, email: user.email, name: user.name, role: user.role, sv } });
    const req = { headers: {}, cookies: { [COOKIE]: token } };
    const res = { getHeader: () => undefined, setHeader: () => undefined, setCookie: () => undefined };
    return (await getServerSession(req as never, res as never, options())) ?? {};
  }
  const hash = () => hashPassword(PASSWORD, 4);

  it('creates a manager and another admin with the CLI password policy, each recorded in the audit log', async () => {
    const first = await createUser(db(), { email: 'root@example.com', name: 'Root Admin', role: 'admin', passwordHash: await hash() });
    const actor = { id: first.id, name: first.name };
    const admin = await createAccount(db(), actor, { name: 'Second Admin', email: 'second@example.com', password: PASSWORD, role: 'admin' });
    const manager = await createAccount(db(), actor, { name: 'Mia Manager', email: 'mia@example.com', password: PASSWORD, role: 'manager' });
    expect(admin.role).toBe('admin');
    expect(manager.role).toBe('manager');
    await expect(createAccount(db(), actor, { name: 'Again', email: 'MIA@example.com', password: PASSWORD, role: 'manager' })).rejects.toMatchObject({ code: 'conflict' });
    const { entries } = await listAudit(db(), 1);
    expect(entries.slice(0, 2).map((e) => [e.action, e.targetName, e.actorName, e.detail])).toEqual([
      ['account.create', 'Mia Manager', 'Root Admin', { email: 'mia@example.com', role: 'manager' }],
      ['account.create', 'Second Admin', 'Root Admin', { email: 'second@example.com', role: 'admin' }],
    ]);
    // The refused duplicate left no entry.
    expect(entries).toHaveLength(2);
  });

  it('deactivates a manager: no sign-in, sessions and streams end; reactivating lets them sign in again', async () => {
    const root = await createUser(db(), { email: 'r2@example.com', name: 'R2', role: 'admin', passwordHash: await hash() });
    const user = await createUser(db(), { email: 'dora@example.com', name: 'Dora', role: 'manager', passwordHash: await hash() });
    const throttle = createSignInThrottle(db());
    const before = (await findUserById(db(), user.id))?.sessionVersion ?? 0;
    expect((await sessionOf(user, before)).user).toBeDefined();
    expect(await currentStreamAccess(db(), user.id, before)).toEqual({ deviceIds: [] });

    await deactivateAccount(db(), root, user.id);
    expect(await verifyCredentials(db(), throttle, { email: 'dora@example.com', password: PASSWORD }, '10.9.0.1')).toEqual({ ok: false, reason: 'invalid' });
    expect((await sessionOf(user, before)).user).toBeUndefined();
    const after = (await findUserById(db(), user.id))?.sessionVersion ?? 0;
    expect(after).toBe(before + 1);
    // Even a cookie with the new version is refused while deactivated.
    expect((await sessionOf(user, after)).user).toBeUndefined();
    expect(await currentStreamAccess(db(), user.id, before)).toEqual({ ended: 'signed-out' });
    expect(await currentStreamAccess(db(), user.id, after)).toEqual({ ended: 'signed-out' });
    await expect(deactivateAccount(db(), root, user.id)).rejects.toMatchObject({ code: 'conflict', reason: 'alreadyDeactivated', text: { values: { name: 'Dora' } } });
    expect((await listAccounts(db())).find((a) => a.id === user.id)?.deactivatedAt).toBeInstanceOf(Date);

    await reactivateAccount(db(), root, user.id);
    expect(await verifyCredentials(db(), throttle, { email: 'dora@example.com', password: PASSWORD }, '10.9.0.2')).toMatchObject({ ok: true });
    expect((await sessionOf(user, before)).user).toBeUndefined(); // sessions from before stay void
    expect((await listAudit(db(), 1)).entries.slice(0, 2).map((e) => e.action)).toEqual(['account.reactivate', 'account.deactivate']);
  });

  it('refuses to deactivate or delete yourself or the last active admin, changing nothing', async () => {
    const solo = await import('@/tests/db').then(({ createPgliteTestDb }) => createPgliteTestDb());
    try {
      const d = solo.handle.db;
      const only = await createUser(d, { email: 'only@example.com', name: 'Only', role: 'admin', passwordHash: await hash() });
      const other = await createUser(d, { email: 'other@example.com', name: 'Other', role: 'admin', passwordHash: await hash() });
      await expect(deactivateAccount(d, only, only.id)).rejects.toMatchObject({ code: 'conflict', reason: 'ownAccount', text: { values: { verb: 'deactivate' } } });
      await expect(deleteAccount(d, only, only.id)).rejects.toMatchObject({ code: 'conflict', reason: 'ownAccount', text: { values: { verb: 'delete' } } });
      await deactivateAccount(d, only, other.id);
      // "Other", now deactivated, is not an active admin: Only is the last one. Another admin's
      // session (were it still valid) could not remove Only either.
      const ghost = { id: randomUUID(), name: 'Ghost' };
      await expect(deactivateAccount(d, ghost, only.id)).rejects.toMatchObject({ code: 'conflict', reason: 'lastActiveAdmin' });
      await expect(deleteAccount(d, ghost, only.id)).rejects.toMatchObject({ code: 'conflict', reason: 'lastActiveAdmin' });
      expect((await findUserById(d, only.id))?.deactivatedAt).toBeNull();
      // A deactivated admin may be deleted: it is not the last active one.
      await deleteAccount(d, only, other.id);
      expect(await findUserById(d, other.id)).toBeUndefined();
      expect((await listAudit(d, 1)).entries.map((e) => e.action)).toEqual(['account.delete', 'account.deactivate']);
    } finally {
      await solo.dispose();
    }
  }, 120_000); // a fresh embedded database of its own: over 20 s on a busy machine

  it('deletes a manager: the account and assignments go, their booking requests keep who asked', async () => {
    const root = await createUser(db(), { email: 'r3@example.com', name: 'R3', role: 'admin', passwordHash: await hash() });
    const gone = await createUser(db(), { email: 'gone@example.com', name: 'Gunnar Gone', role: 'manager', passwordHash: await hash() });
    const deviceId = randomUUID();
    await db().insert(reservationRequests).values({ kind: 'create', deviceId, requestedBy: gone.id, requestedByName: gone.name, status: 'succeeded' });
    await deleteAccount(db(), root, gone.id);
    expect(await findUserById(db(), gone.id)).toBeUndefined();
    expect(await currentStreamAccess(db(), gone.id, 1)).toEqual({ ended: 'account-removed' });
    const rows = await db().select({ name: reservationRequests.requestedByName }).from(reservationRequests);
    expect(rows).toEqual([{ name: 'Gunnar Gone' }]);
    const [entry] = (await listAudit(db(), 1)).entries;
    expect(entry).toMatchObject({ action: 'account.delete', targetId: gone.id, targetName: 'Gunnar Gone', actorName: 'R3', detail: { email: 'gone@example.com', role: 'manager' } });
    await expect(deleteAccount(db(), root, gone.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('records password resets (without the password) and assignment changes; a refused change records nothing', async () => {
    const root = await createUser(db(), { email: 'r4@example.com', name: 'R4', role: 'admin', passwordHash: await hash() });
    const m = await createUser(db(), { email: 'pia@example.com', name: 'Pia', role: 'manager', passwordHash: await hash() });
    await resetManagerPassword(db(), root, m.id, 'another-long-password');
    const [reset] = (await listAudit(db(), 1)).entries;
    expect(reset).toMatchObject({ action: 'account.password-reset', targetName: 'Pia', detail: null });
    expect(JSON.stringify(reset)).not.toContain('another-long-password');
    const total = (await listAudit(db(), 1)).total;
    await expect(assignManagerSystems(db(), root, m.id, [randomUUID()])).rejects.toMatchObject({ code: 'bad_request' });
    await expect(resetManagerPassword(db(), root, root.id, 'another-long-password')).rejects.toMatchObject({ code: 'not_found' });
    await assignManagerSystems(db(), root, m.id, []); // no change: no entry
    expect((await listAudit(db(), 1)).total).toBe(total);
  });

  it('pages the log newest first', async () => {
    const { entries, total, pageCount } = await listAudit(db(), 1, 3);
    expect(entries).toHaveLength(3);
    expect(pageCount).toBe(Math.ceil(total / 3));
    const second = await listAudit(db(), 2, 3);
    expect(second.entries[0]?.id).toBeLessThan(entries[2]?.id ?? 0);
    const times = [...entries, ...second.entries].map((e) => e.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await listAudit(db(), 999, 3)).entries).toEqual([]);
  });
});
