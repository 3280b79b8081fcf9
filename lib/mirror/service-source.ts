import 'server-only';
import type { Paginator, ServiceClient } from '@/lib/service';
import { PAGE_SIZE_MAX } from '@/lib/service/schemas';
import type { MirrorPage, MirrorSource, SourceOptions } from './types';

/** Each page's items with what the reader skipped on it (the refresh counts and stores those). */
async function* itemsByPage<T>(paginator: Paginator<T>): AsyncGenerator<MirrorPage<T>> {
  for await (const page of paginator.pages()) yield { items: page.items, skipped: page.skipped, ...(page.incomplete ? { incomplete: page.incomplete } : {}) };
}

/** The upstream as a mirror source: every collection, in the largest pages the service allows. */
export function serviceMirrorSource(client: ServiceClient, apiKey: string): MirrorSource {
  const options = (source?: SourceOptions) => ({ pageSize: PAGE_SIZE_MAX, resume: source?.resume });
  return {
    reservations: (deviceId, source) => itemsByPage(client.reservations.list(apiKey, deviceId, options(source))),
    resources: (deviceId, source) => itemsByPage(client.resources.list(apiKey, deviceId, options(source))),
    timeSchedules: (deviceId, source) => itemsByPage(client.timeSchedules.list(apiKey, deviceId, options(source))),
    userGroups: (deviceId, source) => itemsByPage(client.userGroups.list(apiKey, deviceId, options(source))),
    users: (deviceId) => client.users.all(apiKey, deviceId),
  };
}
