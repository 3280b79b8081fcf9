import 'server-only';
import { visibleTo } from '@/lib/auth/access';
import type { SessionUser } from '@/lib/auth/schemas';
import { getDb } from '@/lib/db';
import { readTogether } from '@/lib/db/read-together';
import { statesRead } from '@/lib/mirror/store';
import type { MirrorState } from '@/lib/mirror/types';
import type { ResidentSearchResult } from '@/lib/residents/search';
import { getSecrets } from '@/lib/secrets';
import { systemsWithKeysRead, type SystemsWithKeys } from '@/lib/systems/store';
import { findResidents } from '@/lib/views/residents';
import { portalResidentSearchDeps } from '@/lib/wiring';
import { requireViewer } from './viewer';

/**
 * The resident search of the page: the viewer's systems with their keys and their mirror states
 * come in one statement. `deviceId` narrows it to one of them (the slot dialog); a system not
 * visible finds nothing.
 */
export async function searchResidentsFor(user: SessionUser, query: string, deviceId?: string): Promise<ResidentSearchResult> {
  if (query.trim() === '') return { apartments: [], truncated: false };
  const [{ db }, reads] = await Promise.all([getDb(), searchReads()]);
  return searchIn(await readTogether(db, reads(user.id)), query, deviceId);
}

/**
 * The resident search of the route, for the signed-in user (401 as requireUser): the account, the
 * systems, their keys and their mirror states in one statement (a search is asked at every keystroke).
 */
export async function searchResidentsAsViewer(query: string, deviceId?: string): Promise<ResidentSearchResult> {
  const viewer = await requireViewer(await searchReads());
  return query.trim() === '' ? { apartments: [], truncated: false } : searchIn(viewer, query, deviceId);
}

async function searchReads() {
  const { encryptionKey } = await getSecrets();
  return (userId: string) => ({
    systems: systemsWithKeysRead(visibleTo(userId), encryptionKey),
    states: statesRead(visibleTo(userId)),
  });
}

async function searchIn(read: { systems: SystemsWithKeys; states: ReadonlyMap<string, MirrorState> }, query: string, deviceId?: string): Promise<ResidentSearchResult> {
  const { apiKeyOf } = read.systems;
  const systems = deviceId ? read.systems.systems.filter((s) => s.deviceId.toLowerCase() === deviceId.toLowerCase()) : read.systems.systems;
  if (systems.length === 0) return { apartments: [], truncated: false };
  return findResidents(await portalResidentSearchDeps(systems, (id) => Promise.resolve(apiKeyOf(id)), read.states), query);
}
