import 'server-only';
import type { ServiceClient, UserAccount } from '@/lib/service';

/** How long a system's user list and a user's authorizations are reused. */
export const RESIDENT_CACHE_MS = 60_000;

interface Cached<T> {
  at: number;
  value: Promise<T>;
}

const globalForResidents = globalThis as typeof globalThis & {
  __residentCache?: Map<string, Cached<unknown>>;
};
const cache: Map<string, Cached<unknown>> = (globalForResidents.__residentCache ??= new Map<string, Cached<unknown>>());

function cached<T>(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
  const hit = cache.get(key) as Cached<T> | undefined;
  if (hit && now - hit.at < RESIDENT_CACHE_MS) return hit.value;
  const value = load();
  cache.set(key, { at: now, value });
  // A failed load must not be reused.
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key);
  });
  return value;
}

/** Drops cached lookups (tests; after a reset of the upstream data). */
export function clearResidentCache(): void {
  cache.clear();
}

export interface Resident {
  userId: string;
  deviceId: string;
  name: string;
  email: string;
  userGroupId: string | null;
  /** Resources the resident may book. */
  reservationResources: string[];
}

/**
 * A system's resident with the resources they may book, or null when the user is not one of that
 * system's residents. The upstream has no lookup by user id: the system's user list gives the
 * e-mail address, and the e-mail lookup gives the authorizations. Both are cached briefly.
 */
export async function findResident(client: ServiceClient, apiKey: string, deviceId: string, userId: string): Promise<Resident | null> {
  const users = await cached(`all:${deviceId}`, () => client.users.all(apiKey, deviceId));
  const user = users.find((u) => u.userId === userId && u.deviceId === deviceId);
  if (!user) return null;
  const accounts: UserAccount[] = await cached(`email:${deviceId}:${user.email.toLowerCase()}`, () => client.users.byEmail(apiKey, user.email));
  const account = accounts.find((a) => a.userId === userId && a.deviceId === deviceId);
  return {
    userId,
    deviceId,
    name: user.name,
    email: user.email,
    userGroupId: account?.userGroupId ?? user.userGroupId,
    reservationResources: account?.reservationResources ?? [],
  };
}

/** Name of a system's user from the cached user list, without the authorization lookup. */
export async function findUserName(client: ServiceClient, apiKey: string, deviceId: string, userId: string): Promise<string | null> {
  const users = await cached(`all:${deviceId}`, () => client.users.all(apiKey, deviceId));
  return users.find((u) => u.userId === userId)?.name ?? null;
}

/** A resident for the booking dialog's preselection (`?resident=`), or null if not of this system. */
export async function residentSummary(
  client: ServiceClient,
  apiKey: string,
  deviceId: string,
  userId: string,
  apartmentOf: (groupId: string) => Promise<string | null>,
): Promise<{ userId: string; name: string; apartmentId: string | null } | null> {
  const resident = await findResident(client, apiKey, deviceId, userId);
  if (!resident) return null;
  return { userId, name: resident.name, apartmentId: resident.userGroupId ? await apartmentOf(resident.userGroupId) : null };
}
