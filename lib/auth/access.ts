import 'server-only';
import { ApiError } from '@/lib/api/errors';
import { msg } from '@/lib/i18n/message';
import { getDb, type Database } from '@/lib/db';
import type { AccessCheck } from '@/lib/events/sse';
import { log } from '@/lib/log';
import type { SystemPublic } from '@/lib/systems/schemas';
import { getSecrets } from '@/lib/secrets';
import { getSystem, listAllSystems, listSystemsOfManager, listSystemsWithKeys, type SystemsWithKeys } from '@/lib/systems/store';
import type { SessionUser } from './schemas';
import { findUserById, managerHasSystem } from './users';

/**
 * Admins see every system; a manager only those assigned. A manager asking for any other id,
 * existing or not, gets the same 403 (no one learns which systems exist) and the attempt is logged.
 */
export async function checkSystemAccess(db: Database, user: SessionUser, deviceId: string): Promise<SystemPublic> {
  const system = await getSystem(db, deviceId);
  if (user.role === 'admin') {
    if (!system) throw new ApiError('not_found', msg('errors.noSuchSystem'));
    return system;
  }
  if (!system || !(await managerHasSystem(db, user.id, deviceId))) {
    log.warn('system access denied', { userId: user.id, role: user.role, deviceId });
    throw new ApiError('forbidden', msg('errors.noSystemAccess'));
  }
  return system;
}

export async function requireSystemAccess(user: SessionUser, deviceId: string): Promise<SystemPublic> {
  return checkSystemAccess((await getDb()).db, user, deviceId);
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

/**
 * What an open event stream of `userId`, opened with a cookie of `sessionVersion`, may still carry,
 * read from the database: it ends when the account is gone or its session version moved on
 * (sign-out, password reset), else it carries the systems visible now (the role read afresh too).
 */
export async function currentStreamAccess(db: Database, userId: string, sessionVersion: number): Promise<AccessCheck> {
  const user = await findUserById(db, userId);
  if (!user) return { ended: 'account-removed' };
  if (user.sessionVersion !== sessionVersion || user.deactivatedAt !== null) return { ended: 'signed-out' };
  if (user.role === 'admin') return { deviceIds: 'all' };
  return { deviceIds: (await listSystemsOfManager(db, user.id)).map((s) => s.deviceId) };
}

/** listAccessibleSystems with each system's API key, in one query (for searches across systems). */
export async function listAccessibleSystemsWithKeys(user: SessionUser): Promise<SystemsWithKeys> {
  const [{ db }, { encryptionKey }] = await Promise.all([getDb(), getSecrets()]);
  return listSystemsWithKeys(db, user.role === 'admin' ? null : user.id, encryptionKey);
}
