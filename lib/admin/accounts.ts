import 'server-only';
import { and, asc, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { managerSystems, systems, users, type UserRole } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { addManagerSystemsWhere, assignmentCounts, createUser, findUserById, notifyAccessChange, removeManagerSystemsWhere, setManagerSystems, setPassword, type UserRecord } from '@/lib/auth/users';
import { describeSelection, selectionWhere, type SystemFilter, type SystemSelection } from '@/lib/systems/selection';
import type { SessionUser } from '@/lib/auth/schemas';
import { recordAudit, type Actor } from './audit';

export interface AccountSummary extends SessionUser {
  deactivatedAt: Date | null;
  /** How many systems a manager may use (admins see every system: always 0). */
  systemCount: number;
}

/**
 * Every account, admins first, then by name, each with its number of systems: one statement, so the
 * page stays one row per account however many systems each manager has (issue 49).
 */
export async function listAccounts(db: Database): Promise<AccountSummary[]> {
  return db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role, deactivatedAt: users.deactivatedAt, systemCount: count(managerSystems.deviceId) })
    .from(users)
    .leftJoin(managerSystems, eq(managerSystems.userId, users.id))
    .groupBy(users.id)
    .orderBy(asc(users.role), asc(users.name), asc(users.email));
}

/** Creates an account (a manager or another admin) and records who did. */
export async function createAccount(
  db: Database,
  actor: Actor,
  input: { name: string; email: string; password: string; role: UserRole },
): Promise<SessionUser> {
  return db.transaction(async (tx) => {
    const user = await createUser(tx, input);
    await recordAudit(tx, actor, { action: 'account.create', targetType: 'account', targetId: user.id, targetName: user.name, detail: { email: user.email, role: user.role } });
    return user;
  });
}

type Tx = Database;

/** The account, locked for the rest of the transaction; 404 when there is none. */
async function lockAccount(tx: Tx, userId: string): Promise<Pick<UserRecord, 'id' | 'email' | 'name' | 'role' | 'deactivatedAt'>> {
  const [row] = await tx
    .select({ id: users.id, email: users.email, name: users.name, role: users.role, deactivatedAt: users.deactivatedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update')
    .limit(1);
  if (!row) throw new ApiError('not_found', msg('errors.noSuchAccount'));
  return row;
}

/**
 * Refuses to take away the last active admin: nobody could then manage the portal from the web.
 * The other active admins are locked, so two admins removing each other at once cannot both succeed.
 */
async function assertAnotherActiveAdmin(tx: Tx, target: { id: string; role: UserRole; deactivatedAt: Date | null }, verb: 'deactivate' | 'delete'): Promise<void> {
  if (target.role !== 'admin' || target.deactivatedAt !== null) return;
  const others = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.deactivatedAt), ne(users.id, target.id)))
    .for('update');
  if (others.length === 0) throw new ApiError('conflict', msg('errors.lastActiveAdmin', { verb }));
}

function assertNotSelf(actor: Actor, userId: string, verb: 'deactivate' | 'delete'): void {
  if (actor.id === userId) throw new ApiError('conflict', msg('errors.ownAccount', { verb }));
}

/**
 * Deactivates an account: it can no longer sign in, and its sessions and open event streams end
 * (the session version moves on and running portals are told). History and assignments stay.
 */
export async function deactivateAccount(db: Database, actor: Actor, userId: string): Promise<SessionUser> {
  assertNotSelf(actor, userId, 'deactivate');
  return db.transaction(async (tx) => {
    const target = await lockAccount(tx, userId);
    if (target.deactivatedAt !== null) throw new ApiError('conflict', msg('errors.alreadyDeactivated', { name: target.name }));
    await assertAnotherActiveAdmin(tx, target, 'deactivate');
    await tx
      .update(users)
      .set({ deactivatedAt: new Date(), sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, userId));
    await notifyAccessChange(tx, userId);
    await recordAudit(tx, actor, { action: 'account.deactivate', targetType: 'account', targetId: target.id, targetName: target.name, detail: { email: target.email, role: target.role } });
    return { id: target.id, email: target.email, name: target.name, role: target.role };
  });
}

/** Lets a deactivated account sign in again (with its old password; sessions from before stay void). */
export async function reactivateAccount(db: Database, actor: Actor, userId: string): Promise<SessionUser> {
  return db.transaction(async (tx) => {
    const target = await lockAccount(tx, userId);
    if (target.deactivatedAt === null) throw new ApiError('conflict', msg('errors.alreadyActive', { name: target.name }));
    await tx.update(users).set({ deactivatedAt: null, updatedAt: new Date() }).where(eq(users.id, userId));
    await recordAudit(tx, actor, { action: 'account.reactivate', targetType: 'account', targetId: target.id, targetName: target.name, detail: { email: target.email, role: target.role } });
    return { id: target.id, email: target.email, name: target.name, role: target.role };
  });
}

/**
 * Deletes an account: its sessions and streams end, its system assignments go. Booking requests
 * it made stay, with the requester's name as it was then (reservation_requests.requested_by_name).
 */
export async function deleteAccount(db: Database, actor: Actor, userId: string): Promise<SessionUser> {
  assertNotSelf(actor, userId, 'delete');
  return db.transaction(async (tx) => {
    const target = await lockAccount(tx, userId);
    await assertAnotherActiveAdmin(tx, target, 'delete');
    await tx.delete(users).where(eq(users.id, userId));
    await notifyAccessChange(tx, userId);
    await recordAudit(tx, actor, { action: 'account.delete', targetType: 'account', targetId: target.id, targetName: target.name, detail: { email: target.email, role: target.role } });
    return { id: target.id, email: target.email, name: target.name, role: target.role };
  });
}

/** A manager's account, or 404 (admins have no systems or managed passwords here). */
async function managerOf(tx: Tx, userId: string) {
  const target = await lockAccount(tx, userId);
  if (target.role !== 'manager') throw new ApiError('not_found', msg('errors.noSuchManager'));
  return target;
}

/** Sets a manager's new password (signing them out everywhere), recorded without the password. */
export async function resetManagerPassword(db: Database, actor: Actor, userId: string, password: string): Promise<SessionUser> {
  return db.transaction(async (tx) => {
    const target = await managerOf(tx, userId);
    await setPassword(tx, userId, password);
    await recordAudit(tx, actor, { action: 'account.password-reset', targetType: 'account', targetId: target.id, targetName: target.name });
    return target;
  });
}

/** Replaces the systems a manager may use, recording which were added and removed. */
export async function assignManagerSystems(db: Database, actor: Actor, userId: string, deviceIds: string[]): Promise<SessionUser> {
  return db.transaction(async (tx) => {
    const target = await managerOf(tx, userId);
    const before = (await tx.select({ deviceId: managerSystems.deviceId }).from(managerSystems).where(eq(managerSystems.userId, userId))).map((r) => r.deviceId);
    await setManagerSystems(tx, userId, deviceIds);
    const wanted = new Set(deviceIds);
    const added = [...wanted].filter((d) => !before.includes(d)).sort();
    const removed = before.filter((d) => !wanted.has(d)).sort();
    if (added.length > 0 || removed.length > 0) {
      // Names as they are now, so the log stays readable after a system is renamed or disconnected.
      const named = await tx.select({ deviceId: systems.deviceId, name: systems.name }).from(systems).where(inArray(systems.deviceId, [...added, ...removed]));
      const nameOf = (d: string) => named.find((n) => n.deviceId === d)?.name ?? d;
      await recordAudit(tx, actor, {
        action: 'account.systems',
        targetType: 'account',
        targetId: target.id,
        targetName: target.name,
        detail: { added: added.map(nameOf), removed: removed.map(nameOf) },
      });
    }
    return target;
  });
}

/** A manager who may be given systems: 404 when there is no such account, a sentence when it is an admin's. */
function assertManager(target: { role: UserRole } | undefined): asserts target is { role: 'manager' } {
  if (!target) throw new ApiError('not_found', msg('errors.noSuchManager'));
  if (target.role !== 'manager') throw new ApiError('bad_request', msg('errors.assignToManagersOnly'));
}

export type BulkChange = 'assign' | 'unassign';

export interface BulkPreview {
  manager: SessionUser;
  /** Systems the selection names. */
  matching: number;
  /** Of those, the ones the manager has now. */
  assigned: number;
}

/** What a bulk change would do, before it is made (the page's count, the CLI's --dry-run): one statement. */
export async function previewManagerSystems(db: Database, userId: string, filter: SystemFilter): Promise<BulkPreview> {
  const target = await findUserById(db, userId);
  assertManager(target);
  const counts = await assignmentCounts(db, userId, selectionWhere(filter));
  return { manager: { id: target.id, email: target.email, name: target.name, role: target.role }, ...counts };
}

export interface BulkResult {
  manager: SessionUser;
  /** Systems the selection named when the change was made. */
  matching: number;
  /** Systems given (assign) or taken back (unassign); the others already were (or were not) the manager's. */
  changed: number;
}

/**
 * Gives a manager every system a selection names, or takes them back: one statement for the
 * change however many systems (INSERT … SELECT … ON CONFLICT DO NOTHING, DELETE … WHERE), and one
 * audit entry with the count and the filter. Repeating it changes nothing and records nothing.
 */
export async function changeManagerSystems(db: Database, actor: Actor, userId: string, selection: SystemSelection, change: BulkChange): Promise<BulkResult> {
  const where = selectionWhere(selection);
  return db.transaction(async (tx) => {
    // Locked, so a delete of the account in between cannot leave the entry naming a change that never was.
    const [target] = await tx
      .select({ id: users.id, email: users.email, name: users.name, role: users.role })
      .from(users)
      .where(eq(users.id, userId))
      .for('update')
      .limit(1);
    assertManager(target);
    const changed = change === 'assign' ? await addManagerSystemsWhere(tx, userId, where) : await removeManagerSystemsWhere(tx, userId, where);
    const { matching } = await assignmentCounts(tx, userId, where);
    if (changed > 0) {
      await recordAudit(tx, actor, {
        action: 'account.systems-bulk',
        targetType: 'account',
        targetId: target.id,
        targetName: target.name,
        detail: { change, count: changed, matching, selection: describeSelection(selection) },
      });
    }
    return { manager: { id: target.id, email: target.email, name: target.name, role: target.role }, matching, changed };
  });
}
