import 'server-only';
import { log } from '@/lib/log';
import { isMissingEndpoint, isServiceError, type ServiceClient, type UserAccount } from '@/lib/service';
import { cachedPromise, createCache } from '@/lib/cache';

/** How long a system's user list and a user's authorizations are reused. */
export const RESIDENT_CACHE_MS = 60_000;

// Keyed by system or by lookup; bounded well above the systems × lookups of a busy minute.
const cache = createCache<Promise<unknown>>('resident-lookups', { max: 10_000, ttlMs: RESIDENT_CACHE_MS });

// A failed load is not reused (cachedPromise drops it).
const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => cachedPromise(cache, key, load) as Promise<T>;

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
  /**
   * Resources the resident may book; null when the service gave no way to learn them (a user with
   * no e-mail address and a group without apartment or reference id): then the service decides.
   */
  reservationResources: string[] | null;
}

/** The keys of a user's group, for the lookups that give a user's authorizations. */
export type GroupKeysOf = (groupId: string) => Promise<{ apartmentId: string | null; referenceId: string | null } | undefined>;

/**
 * A system's resident with the resources they may book, or null when the user is not one of that
 * system's residents. The upstream has no lookup by user id: the system's user list gives the
 * e-mail address and group, and a lookup by e-mail (or, for a user without one, by the group's
 * apartment or reference id) gives the authorizations. Cached briefly. These lookups pass the
 * reads breaker, not the search one: managers' searches failing must not stop bookings.
 */
export async function findResident(client: ServiceClient, apiKey: string, deviceId: string, userId: string, groupKeysOf?: GroupKeysOf): Promise<Resident | null> {
  const users = await cached(`all:${deviceId}`, () => client.users.all(apiKey, deviceId)).catch((error: unknown) => {
    // users/fetch is beyond the interface document: a service without it answers 404 or 405.
    if (isMissingEndpoint(error)) return null;
    throw error;
  });
  if (users === null) {
    log.warn('the service has no user list (users/fetch); the booking is left to its own checks', { deviceId });
    return { userId, deviceId, name: '', email: '', userGroupId: null, reservationResources: null };
  }
  const user = users.find((u) => u.userId === userId && u.deviceId === deviceId);
  if (!user) return null;
  const options = { lane: 'reads' as const };
  const email = user.email?.trim() || null;
  let account: UserAccount | undefined;
  // A lookup the service could not answer leaves the authorizations unknown, not refused.
  let answered = false;
  const lookUp = async (key: string, call: () => Promise<UserAccount[]>) => {
    try {
      const accounts = await cached(key, call);
      answered = true;
      return accounts.find((a) => a.userId === userId && a.deviceId === deviceId);
    } catch (error) {
      if (!isServiceError(error)) throw error;
      log.warn('resident authorizations unknown: a lookup failed', { deviceId, kind: error.kind, operation: error.operation });
      return undefined;
    }
  };
  if (email) account = await lookUp(`email:${deviceId}:${email.toLowerCase()}`, () => client.users.byEmail(apiKey, email, options));
  if (!account && user.userGroupId && groupKeysOf) {
    const keys = await groupKeysOf(user.userGroupId);
    const apartment = keys?.apartmentId?.trim();
    const reference = keys?.referenceId?.trim();
    if (apartment) account = await lookUp(`apartment:${deviceId}:${apartment}`, () => client.users.byApartment(apiKey, apartment, options));
    if (!account && reference) account = await lookUp(`reference:${deviceId}:${reference}`, () => client.users.byReference(apiKey, reference, options));
  }
  return {
    userId,
    deviceId,
    name: user.name ?? '',
    email: email ?? '',
    userGroupId: account?.userGroupId ?? user.userGroupId,
    // Found: its list (absent means none). Not found where the service answered: none. Unknown: null.
    reservationResources: account ? (account.reservationResources ?? []) : answered ? [] : null,
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
): Promise<{ userId: string; name: string; apartmentId: string | null; userGroupId: string | null } | null> {
  const resident = await findResident(client, apiKey, deviceId, userId);
  if (!resident) return null;
  const { userGroupId } = resident;
  return { userId, name: resident.name, apartmentId: userGroupId ? await apartmentOf(userGroupId) : null, userGroupId };
}
