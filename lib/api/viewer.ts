import 'server-only';
import { forgetHeldViewers, readAsViewer, readHeldSystemViewer } from '@/lib/auth/access';
import type { SessionUser } from '@/lib/auth/schemas';
import { getDb } from '@/lib/db';
import { getEventBus } from '@/lib/events/bus';
import { singleton } from '@/lib/singleton';
import type { JsonRead, ReadResults } from '@/lib/db/read-together';
import { measure } from '@/lib/observability/server-timing';
import type { SystemPublic } from '@/lib/systems/schemas';
import { currentSessionToken } from './session';

/**
 * For route handlers about one system: the signed-in user (401 as requireUser) and the system they
 * may see (403 or 404 as requireSystemAccess), the account, the system and the assignment read in
 * one statement, with the caller's own `reads` of that system if any (used only once access is
 * decided; see requireViewer). `deviceId` must be a parsed id. A viewer decided within the last
 * VIEWER_HOLD_MS (1 s) is reused (lib/auth/access.ts): for reads only; an access notice drops it.
 */
export async function requireSystemViewer<R extends Record<string, JsonRead<unknown>> = Record<never, never>>(
  deviceId: string,
  reads?: (userId: string) => R,
): Promise<{ user: SessionUser; system: SystemPublic } & ReadResults<R>> {
  const { db } = await getDb();
  // Once per process: an access notice (this instance's or, on PostgreSQL, another's) drops the held viewers.
  singleton('held-viewers-forget', () => getEventBus().subscribeAccess(() => forgetHeldViewers(db)));
  return measure('viewer', async () => readHeldSystemViewer(db, await currentSessionToken(), deviceId, reads));
}

/**
 * For route handlers that read on behalf of the signed-in user: the account (checked as requireUser
 * checks it, 401 otherwise) and the caller's reads, given the account's id, in one statement. The
 * reads run before the account is known to be valid, so they must be scoped by that id (see
 * visibleTo); nothing read is returned unless the session holds.
 */
export async function requireViewer<R extends Record<string, JsonRead<unknown>>>(reads: (userId: string) => R): Promise<{ user: SessionUser } & ReadResults<R>> {
  return measure('viewer', async () => readAsViewer((await getDb()).db, await currentSessionToken(), reads));
}
