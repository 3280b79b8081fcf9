import 'server-only';
import { z } from 'zod';
import type { SqlRunner } from '@/shared/sql-runner';
import { hasControlCharacters } from '@/lib/http/control-characters';
import { mirrorSnapshot, type MirrorSnapshot } from '@/lib/mirror/snapshot';
import { readState } from '@/lib/mirror/store';
import type { ServiceClient, UserAccount } from '@/lib/service';
import type { SystemPublic } from '@/lib/systems/schemas';
import { RESIDENT_QUERY_MAX_LENGTH, type ResidentResult } from './types';

/**
 * Up to this many visible systems, their mirror data (names, apartments) is read while the upstream
 * lookups are in flight, so the database work hides behind the network wait. Beyond it, only the
 * systems that have results are read, after the lookups (a search must not touch every system of
 * a large installation).
 */
export const RESIDENT_MIRROR_PREFETCH_MAX = 4;

const CONTROL_CHARACTERS_MESSAGE = 'The search must not contain control characters (such as NUL or a line break).';

/** The one search box: an apartment number, an e-mail address or a reference id. */
export const residentQuerySchema = z
  .string({ error: 'Give q: an apartment number, e-mail address or reference id.' })
  .trim()
  .min(1, 'Type an apartment number, e-mail address or reference id.')
  .max(RESIDENT_QUERY_MAX_LENGTH, `The search may be at most ${RESIDENT_QUERY_MAX_LENGTH} characters.`)
  .refine((q) => !hasControlCharacters(q), CONTROL_CHARACTERS_MESSAGE);

/** True when the query is malformed (400) rather than merely unusable (422). */
export function isMalformedResidentQuery(issues: readonly { message: string }[]): boolean {
  return issues.some((i) => i.message === CONTROL_CHARACTERS_MESSAGE);
}

export type ResidentLookupKind = 'email' | 'apartment' | 'reference';

/** Which upstream lookups a query goes to: an "@" means an e-mail address, anything else may be either other key. */
export function lookupKindsFor(query: string): ResidentLookupKind[] {
  return query.includes('@') ? ['email'] : ['apartment', 'reference'];
}

export interface ResidentSearchDeps {
  sql: SqlRunner;
  client: Pick<ServiceClient, 'users'>;
  /** The systems the viewer may see. */
  systems: readonly SystemPublic[];
  /** The API key of a system (undefined when it is not connected). */
  apiKeyOf: (deviceId: string) => Promise<string | undefined>;
  /**
   * The system's mirrored resources and groups, for names and apartments (may wait a little while
   * a system never loaded loads). Without it the current generation is read as it is.
   */
  mirror?: (deviceId: string) => Promise<MirrorSnapshot | null>;
}

async function currentSnapshot(sql: SqlRunner, deviceId: string): Promise<MirrorSnapshot | null> {
  const state = await readState(sql, deviceId);
  return state ? mirrorSnapshot(sql, deviceId, state) : null;
}

/**
 * Finds residents across every system the viewer may see. A key may cover several systems, so
 * each distinct key is asked once; results of systems the viewer may not see are dropped.
 */
export async function searchResidents(deps: ResidentSearchDeps, rawQuery: string): Promise<ResidentResult[]> {
  const query = residentQuerySchema.parse(rawQuery);
  const visible = new Map(deps.systems.map((s) => [s.deviceId.toLowerCase(), s]));
  const keys = new Set<string>();
  for (const system of deps.systems) {
    const key = await deps.apiKeyOf(system.deviceId);
    if (key) keys.add(key);
  }
  const readMirror = deps.mirror ?? ((id: string) => currentSnapshot(deps.sql, id));
  const snapshots = new Map<string, Promise<MirrorSnapshot | null>>();
  const snapshotOf = (deviceId: string) => {
    let pending = snapshots.get(deviceId);
    if (!pending) {
      pending = readMirror(deviceId);
      snapshots.set(deviceId, pending);
    }
    return pending;
  };
  if (visible.size <= RESIDENT_MIRROR_PREFETCH_MAX) {
    // Observed below for the systems with results; a failure of the others must not go unhandled.
    for (const deviceId of visible.keys()) snapshotOf(deviceId).catch(() => undefined);
  }
  const kinds = lookupKindsFor(query);
  const byApartment = new Set<string>();
  const lookups = [...keys].flatMap((key) =>
    kinds.map(async (kind) => {
      switch (kind) {
        case 'email':
          return deps.client.users.byEmail(key, query);
        case 'apartment': {
          const found = await deps.client.users.byApartment(key, query);
          for (const a of found) byApartment.add(a.userId);
          return found;
        }
        case 'reference':
          return deps.client.users.byReference(key, query);
      }
    }),
  );
  const accounts: UserAccount[] = (await Promise.all(lookups)).flat();

  const byUser = new Map<string, UserAccount>();
  for (const account of accounts) {
    if (!visible.has(account.deviceId.toLowerCase())) continue;
    const existing = byUser.get(account.userId);
    // The same user from two lookups: keep the one that lists resources.
    if (!existing || (!existing.reservationResources && account.reservationResources)) byUser.set(account.userId, account);
  }
  const found = [...byUser.values()];
  const deviceIds = [...new Set(found.map((a) => a.deviceId.toLowerCase()))];
  const resourceNames = new Map<string, string>();
  const groupApartments = new Map<string, string>();
  await Promise.all(
    deviceIds.map(async (deviceId) => {
      const snapshot = await snapshotOf(deviceId);
      if (!snapshot) return;
      for (const r of snapshot.resources) resourceNames.set(r.id, r.name);
      for (const account of found) {
        const groupId = account.deviceId.toLowerCase() === deviceId ? account.userGroupId?.toLowerCase() : undefined;
        const apartmentId = groupId ? snapshot.groupById.get(groupId)?.apartmentId : undefined;
        if (groupId && apartmentId) groupApartments.set(groupId, apartmentId);
      }
    }),
  );
  return found
    .map((account): ResidentResult => {
      const deviceId = account.deviceId.toLowerCase();
      const groupId = account.userGroupId?.toLowerCase() ?? null;
      return {
        userId: account.userId.toLowerCase(),
        name: account.name,
        email: account.email,
        deviceId,
        systemName: visible.get(deviceId)?.name ?? deviceId,
        // The apartment lookup names it exactly; otherwise the mirrored group says which.
        apartmentId: (groupId ? groupApartments.get(groupId) : undefined) ?? (byApartment.has(account.userId) ? query : null),
        userGroupId: groupId,
        resources: (account.reservationResources ?? []).map((id) => ({
          id: id.toLowerCase(),
          name: resourceNames.get(id.toLowerCase()) ?? 'Unnamed resource',
        })),
      };
    })
    .sort((a, b) => a.systemName.localeCompare(b.systemName) || (a.apartmentId ?? '').localeCompare(b.apartmentId ?? '') || a.name.localeCompare(b.name));
}
