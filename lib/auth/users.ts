import 'server-only';
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { managerSystems, systems, users, type UserRole } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { ACCESS_CHANNEL } from './access-notices';
import { queryBuilder, selectRows, type JsonRead } from '@/lib/db/read-together';
import { hashPassword } from './passwords';
import type { SessionUser } from './schemas';

export interface UserRecord extends SessionUser {
  passwordHash: string | null;
  sessionVersion: number;
  /** Set while the account is deactivated: it may not sign in, and its sessions are void. */
  deactivatedAt: Date | null;
  /** The saved language choice, unchecked (a language later removed from the portal reads as none). */
  locale: string | null;
}

const userColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: users.role,
  passwordHash: users.passwordHash,
  sessionVersion: users.sessionVersion,
  deactivatedAt: users.deactivatedAt,
  locale: users.locale,
};

export async function findUserByEmail(db: Database, email: string): Promise<UserRecord | undefined> {
  const [row] = await db.select(userColumns).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return row;
}

export async function findUserById(db: Database, id: string): Promise<UserRecord | undefined> {
  const [row] = await db.select(userColumns).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Names and e-mail addresses of accounts by id (reports name the managers who booked). */
export async function accountContacts(db: Database, ids: readonly string[]): Promise<Map<string, { name: string; email: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, [...ids]));
  return new Map(rows.map((r) => [r.id, { name: r.name, email: r.email }]));
}

/** findUserById as one read of a `readTogether` (lib/db/read-together.ts). */
export function userRead(id: string): JsonRead<UserRecord | undefined> {
  const rows = selectRows(queryBuilder.select(userColumns).from(users).where(eq(users.id, id)).limit(1));
  return { query: rows.query, parse: (json) => rows.parse(json)[0] };
}

export interface NewUser {
  email: string;
  name: string;
  role: UserRole;
  password?: string;
  /** Pre-computed hash (seeding several users with one hash computation is not needed; tests use low cost). */
  passwordHash?: string;
}

export async function createUser(db: Database, input: NewUser): Promise<SessionUser> {
  const passwordHash = input.passwordHash ?? (input.password === undefined ? null : await hashPassword(input.password));
  const [row] = await db
    .insert(users)
    .values({ email: input.email.trim().toLowerCase(), name: input.name, role: input.role, passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id, email: users.email, name: users.name, role: users.role });
  if (!row) throw new ApiError('conflict', msg('errors.emailTaken', { email: input.email }));
  return row;
}

/**
 * Tells every portal instance (and this one) that the user's access changed, so their open event
 * streams re-check it: a database notification, sent when the surrounding transaction commits.
 * Call it in the transaction that made the change (the admin CLI's changes reach running portals too).
 */
export async function notifyAccessChange(db: Pick<Database, 'execute'>, userId: string): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${ACCESS_CHANNEL}, ${userId})`);
}

/** Sets a new password and revokes every session issued before. */
export async function setPassword(db: Database, userId: string, password: string, passwordHash?: string): Promise<void> {
  const hash = passwordHash ?? (await hashPassword(password));
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(users)
      .set({ passwordHash: hash, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning({ id: users.id });
    if (updated.length === 0) throw new ApiError('not_found', msg('errors.noSuchUser'));
    await notifyAccessChange(tx, userId);
  });
}

/** Revokes every session of the user issued before now (sign-out, password change); open event streams end. */
export async function bumpSessionVersion(db: Database, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, userId));
    await notifyAccessChange(tx, userId);
  });
}

/** Replaces the systems a manager may use. Unknown systems are refused, nothing changes. */
export async function setManagerSystems(db: Database, userId: string, deviceIds: string[]): Promise<void> {
  const wanted = [...new Set(deviceIds)];
  await db.transaction(async (tx) => {
    const [manager] = await tx.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
    if (!manager) throw new ApiError('not_found', msg('errors.noSuchManager'));
    if (manager.role !== 'manager') throw new ApiError('bad_request', msg('errors.assignToManagersOnly'));
    if (wanted.length > 0) {
      const known = await tx.select({ deviceId: systems.deviceId }).from(systems).where(inArray(systems.deviceId, wanted));
      const missing = wanted.filter((id) => !known.some((k) => k.deviceId === id));
      if (missing.length > 0) throw new ApiError('bad_request', msg('errors.unknownSystems', { count: missing.length, ids: missing.slice(0, 10).join(', ') }));
    }
    await tx.delete(managerSystems).where(eq(managerSystems.userId, userId));
    if (wanted.length > 0) await tx.insert(managerSystems).values(wanted.map((deviceId) => ({ userId, deviceId })));
    await notifyAccessChange(tx, userId);
  });
}

/** Adds systems to a manager's set (seeding). */
export async function addManagerSystems(db: Database, userId: string, deviceIds: string[]): Promise<void> {
  if (deviceIds.length === 0) return;
  await db
    .insert(managerSystems)
    .values(deviceIds.map((deviceId) => ({ userId, deviceId })))
    .onConflictDoNothing();
  await notifyAccessChange(db, userId);
}

/** managerHasSystem as one read of a `readTogether`. */
export function assignmentRead(userId: string, deviceId: string): JsonRead<boolean> {
  const rows = selectRows(
    queryBuilder
      .select({ deviceId: managerSystems.deviceId })
      .from(managerSystems)
      .where(and(eq(managerSystems.userId, userId), eq(managerSystems.deviceId, deviceId)))
      .limit(1),
  );
  return { query: rows.query, parse: (json) => rows.parse(json).length > 0 };
}

export async function managerHasSystem(db: Database, userId: string, deviceId: string): Promise<boolean> {
  const rows = await db
    .select({ deviceId: managerSystems.deviceId })
    .from(managerSystems)
    .where(and(eq(managerSystems.userId, userId), eq(managerSystems.deviceId, deviceId)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Gives a manager every system the condition on `systems` selects (undefined: every system), in one
 * statement however many there are (INSERT … SELECT, those already theirs left as they are). Answers
 * how many were new. Call it in the transaction that checked the account is a manager.
 */
export async function addManagerSystemsWhere(tx: Database, userId: string, where: SQL | undefined): Promise<number> {
  const added = await tx
    .insert(managerSystems)
    .select(tx.select({ userId: sql<string>`${userId}::uuid`.as('user_id'), deviceId: systems.deviceId }).from(systems).where(where))
    .onConflictDoNothing()
    .returning({ deviceId: managerSystems.deviceId });
  if (added.length > 0) await notifyAccessChange(tx, userId);
  return added.length;
}

/** Takes back from a manager every system the condition selects, in one statement. Answers how many they had. */
export async function removeManagerSystemsWhere(tx: Database, userId: string, where: SQL | undefined): Promise<number> {
  const removed = await tx
    .delete(managerSystems)
    .where(and(eq(managerSystems.userId, userId), inArray(managerSystems.deviceId, tx.select({ deviceId: systems.deviceId }).from(systems).where(where))))
    .returning({ deviceId: managerSystems.deviceId });
  if (removed.length > 0) await notifyAccessChange(tx, userId);
  return removed.length;
}

/** How many systems the condition selects, and how many of those the manager has: one statement. */
export async function assignmentCounts(db: Database, userId: string, where: SQL | undefined): Promise<{ matching: number; assigned: number }> {
  const [row] = await db
    .select({ matching: count(), assigned: count(managerSystems.deviceId) })
    .from(systems)
    .leftJoin(managerSystems, and(eq(managerSystems.deviceId, systems.deviceId), eq(managerSystems.userId, userId)))
    .where(where);
  return { matching: row?.matching ?? 0, assigned: row?.assigned ?? 0 };
}
