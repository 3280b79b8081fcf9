import 'server-only';
import { cachePerOwner } from '@/lib/cache';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { getDb, type Database } from '@/lib/db';
import { log } from '@/lib/log';
import { measure } from '@/lib/observability/server-timing';
import type { SystemPublic } from '@/lib/systems/schemas';
import { getSystem, listAllSystems, listSystemsOfManager, systemRead } from '@/lib/systems/store';
import { queryBuilder, readTogether, type JsonRead, type ReadResults } from '@/lib/db/read-together';
import { managerSystems, users } from '@/lib/db/schema';
import { and, eq, exists, inArray, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { JWT } from 'next-auth/jwt';
import { sessionStillValid, sessionUserOf } from './session-token';
import type { SessionUser } from './schemas';
import { assignmentRead, managerHasSystem, userRead, type UserRecord } from './users';

/**
 * Admins see every system; a manager only those assigned. A manager asking for any other id,
 * existing or not, gets the same 403 (no one learns which systems exist) and the attempt is logged.
 */
export async function checkSystemAccess(db: Database, user: SessionUser, deviceId: string): Promise<SystemPublic> {
  const system = await getSystem(db, deviceId);
  const assigned = user.role === 'admin' || (system !== undefined && (await managerHasSystem(db, user.id, deviceId)));
  return decideSystemAccess(user, deviceId, system, assigned);
}

/** The rule above, given what was read: the system (if it exists) and whether it is the user's. */
export function decideSystemAccess(user: SessionUser, deviceId: string, system: SystemPublic | undefined, assigned: boolean): SystemPublic {
  if (user.role === 'admin') {
    if (!system) throw new ApiError('not_found', msg('errors.noSuchSystem'));
    return system;
  }
  if (!system || !assigned) {
    log.warn('system access denied', { userId: user.id, role: user.role, deviceId });
    throw new ApiError('forbidden', msg('errors.noSystemAccess'));
  }
  return system;
}

/** requireSystemViewer, given the request's decrypted session token (null without one). */
export async function readSystemViewer<R extends Record<string, JsonRead<unknown>> = Record<never, never>>(
  db: Database,
  token: SessionToken | null,
  deviceId: string,
  reads?: (userId: string) => R,
): Promise<{ user: SessionUser; system: SystemPublic } & ReadResults<R>> {
  // The caller's reads come back beside the viewer's own (named so that they cannot collide).
  const read = (await readAsViewer(db, token, (userId) => ({
    ...(reads?.(userId) ?? {}),
    viewerSystem: systemRead(deviceId),
    viewerAssigned: assignmentRead(userId, deviceId),
  }))) as unknown as { user: SessionUser; viewerSystem: SystemPublic | undefined; viewerAssigned: boolean } & ReadResults<R>;
  const { user, viewerSystem, viewerAssigned, ...rest } = read;
  return { ...(rest as unknown as ReadResults<R>), user, system: decideSystemAccess(user, deviceId, viewerSystem, viewerAssigned) };
}

/**
 * How long a decided viewer (the account holds the session and may see the system) is reused by
 * readHeldSystemViewer, per process: the grid's warm read then skips the account, system and
 * assignment reads (issue 34). A revoked session, deactivated account or removed assignment is
 * refused within this long on every instance, and at once on an instance that hears the access
 * notice (forgetHeldViewers; lib/api/viewer.ts listens). A refusal is never held.
 */
export const VIEWER_HOLD_MS = 1_000;

interface HeldViewer {
  user: SessionUser;
  system: SystemPublic;
}
const heldViewers = cachePerOwner<Database, HeldViewer>('held-system-viewers', { max: 5_000, ttlMs: VIEWER_HOLD_MS });
/** Moves on with each forgetHeldViewers: a decision read before it is not kept after it. */
const heldGeneration = new WeakMap<Database, number>();

/** Drops every held viewer of `db` (an access notice: a session, role or assignment changed). */
export function forgetHeldViewers(db: Database): void {
  heldViewers(db).clear();
  heldGeneration.set(db, (heldGeneration.get(db) ?? 0) + 1);
}

/**
 * readSystemViewer, reusing a viewer decided within VIEWER_HOLD_MS for the same account, session
 * version and system (then only the caller's reads run). For reads only: the grid's week route.
 */
export async function readHeldSystemViewer<R extends Record<string, JsonRead<unknown>> = Record<never, never>>(
  db: Database,
  token: SessionToken | null,
  deviceId: string,
  reads?: (userId: string) => R,
): Promise<{ user: SessionUser; system: SystemPublic } & ReadResults<R>> {
  if (!token?.uid) throw new ApiError('unauthorized', msg('errors.signIn'));
  const key = `${token.uid}|${String(token.sv)}|${deviceId}`;
  const cache = heldViewers(db);
  const held = cache.get(key);
  if (held) {
    const own = reads?.(held.user.id);
    const rest = own && Object.keys(own).length > 0 ? await readTogether(db, own) : ({} as ReadResults<R>);
    return { ...rest, user: held.user, system: held.system };
  }
  const generation = heldGeneration.get(db) ?? 0;
  const viewer = await readSystemViewer(db, token, deviceId, reads);
  if ((heldGeneration.get(db) ?? 0) === generation) cache.set(key, { user: viewer.user, system: viewer.system });
  return viewer;
}

export type SessionToken = Pick<JWT, 'uid' | 'sv'>;

/** requireViewer, given the request's decrypted session token (null without one). */
export async function readAsViewer<R extends Record<string, JsonRead<unknown>>>(
  db: Database,
  token: SessionToken | null,
  reads: (userId: string) => R,
): Promise<{ user: SessionUser } & ReadResults<R>> {
  if (!token?.uid) throw new ApiError('unauthorized', msg('errors.signIn'));
  const { user: record, ...rest } = await readTogether(db, { ...reads(token.uid), user: userRead(token.uid) });
  if (!sessionStillValid(record as UserRecord | undefined, token)) throw new ApiError('unauthorized', msg('errors.signIn'));
  return { ...(rest as ReadResults<R>), user: sessionUserOf(record as UserRecord) };
}

/**
 * Whether a system (by its id column) is one a user may see, as a condition: every system for an
 * admin, the assigned ones for a manager (the role as stored, not as the session token says). The
 * admin check is a subquery PostgreSQL evaluates once per statement.
 */
export function visibleTo(userId: string): (deviceId: PgColumn) => SQL {
  const isAdmin = queryBuilder.select({ id: users.id }).from(users).where(and(eq(users.id, userId), eq(users.role, 'admin')));
  const assigned = queryBuilder.select({ deviceId: managerSystems.deviceId }).from(managerSystems).where(eq(managerSystems.userId, userId));
  return (deviceId) => or(exists(isAdmin), inArray(deviceId, assigned)) as SQL;
}

export async function requireSystemAccess(user: SessionUser, deviceId: string): Promise<SystemPublic> {
  return measure('access', async () => checkSystemAccess((await getDb()).db, user, deviceId));
}

export async function listAccessibleSystemsIn(db: Database, user: SessionUser): Promise<SystemPublic[]> {
  return user.role === 'admin' ? listAllSystems(db) : listSystemsOfManager(db, user.id);
}

export async function listAccessibleSystems(user: SessionUser): Promise<SystemPublic[]> {
  return listAccessibleSystemsIn((await getDb()).db, user);
}

/**
 * The systems whose events and requests a user may see: 'all' for an admin (systems connected
 * later included), else the manager's assigned systems. `known` saves the read when the caller
 * already listed them.
 */
export async function visibleDeviceIds(user: SessionUser, known?: readonly SystemPublic[]): Promise<string[] | 'all'> {
  if (user.role === 'admin') return 'all';
  return (known ?? (await listAccessibleSystems(user))).map((s) => s.deviceId);
}
