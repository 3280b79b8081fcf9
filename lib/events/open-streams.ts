import 'server-only';
import { getMetrics } from '@/lib/observability/metrics';
import { singleton } from '@/lib/singleton';

/**
 * Why the server ended a stream, sent as its last frame `event: end` / `data: {"reason":…}` (no id):
 * - `signed-out`: the session was revoked (sign-out, password reset, any session-version bump);
 *   the browser must not reconnect, its cookie is no longer valid.
 * - `account-removed`: the account no longer exists; likewise.
 * - `restart`: this server is shutting down; reconnect after a short delay with Last-Event-ID.
 */
export type StreamEndReason = 'signed-out' | 'account-removed' | 'restart';

type EndStream = (reason: StreamEndReason) => void;

/** Every open event stream of this process, by the function that ends it with a reason. */
const openStreams = singleton('sse-open-streams', () => new Set<EndStream>());

/** Counts a stream as open until the returned function is called (the gauge follows the set). */
export function trackOpenStream(end: EndStream): () => void {
  openStreams.add(end);
  getMetrics().sseClients.set(openStreams.size);
  return () => {
    openStreams.delete(end);
    getMetrics().sseClients.set(openStreams.size);
  };
}

/** The functions that end each open stream, as they are now. */
export function openStreamEnders(): EndStream[] {
  return [...openStreams];
}

/** How many streams this process has open. */
export function openEventStreamCount(): number {
  return openStreams.size;
}
