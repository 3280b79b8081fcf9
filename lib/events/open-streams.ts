import { singleton } from '@/lib/singleton';

/**
 * Why the server ended a stream, sent as its last frame `event: end` / `data: {"reason":…}` (no id):
 * - `signed-out`: the session was revoked (sign-out, password reset, any session-version bump);
 *   the browser must not reconnect, its cookie is no longer valid.
 * - `account-removed`: the account no longer exists; likewise.
 * - `restart`: this server is shutting down; reconnect after a short delay with Last-Event-ID.
 */
export type StreamEndReason = 'signed-out' | 'account-removed' | 'restart';

/**
 * Every open event stream of this process, by the function that ends it with a reason. Its own
 * module so the metrics can count it at scrape time without importing the stream code.
 */
export const openStreams = singleton('sse-open-streams', () => new Set<(reason: StreamEndReason) => void>());

/** How many streams this process has open. */
export function openEventStreamCount(): number {
  return openStreams.size;
}
