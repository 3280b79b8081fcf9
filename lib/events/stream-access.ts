import 'server-only';
import { findUserById } from '@/lib/auth/users';
import type { Database } from '@/lib/db';
import { listSystemsOfManager } from '@/lib/systems/store';
import type { AccessCheck } from './sse';

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

