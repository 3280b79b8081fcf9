import 'server-only';
import { getMetrics } from '@/lib/observability/metrics';
import { singleton } from '@/lib/singleton';

/**
 * Why the server ended a stream, sent as its last frame `event: end` / `data: {"reason":…}` (no id):
 * - `signed-out`: the session was revoked (sign-out, password reset, any session-version bump);
 *   the browser must not reconnect, its cookie is no longer valid.
 * - `account-removed`: the account no longer exists; likewise.
 * - `restart`: this server is shutting down; reconnect after a short delay with Last-Event-ID.
 * - `superseded`: the session or user opened more streams than allowed (STREAMS_PER_SESSION,
 *   STREAMS_PER_USER) and this was the oldest; the browser must not reconnect (it would only
 *   close another tab's stream in turn) and says so.
 * - `switched-off`: a laundry-room display's stream (lib/displays/stream.ts): the display was revoked
 *   or its address rotated away; the screen says so and does not reconnect.
 * - `reload`: a laundry-room display was renamed or given another language, which are in the page
 *   itself (its heading, its sentences): the screen loads its page again.
 */
export type StreamEndReason = 'signed-out' | 'account-removed' | 'restart' | 'superseded' | 'switched-off' | 'reload';

/** Open streams one session may hold; a new one beyond closes the session's oldest. */
export const STREAMS_PER_SESSION = 10;
/** Open streams one user may hold over all sessions; a new one beyond closes the user's oldest. */
export const STREAMS_PER_USER = 30;

type EndStream = (reason: StreamEndReason) => void;

/** Whose a stream is, for the caps (issue 33: one session opened 400 and slowed everyone). */
export interface StreamOwner {
  userId: string;
  sessionId: string;
}

/** Every open event stream of this process, by the function that ends it; in opening order. */
const openStreams = singleton('sse-open-streams', () => new Map<EndStream, StreamOwner | undefined>());

function oldestBeyond(limit: number, same: (owner: StreamOwner) => boolean): EndStream | undefined {
  let count = 0;
  let oldest: EndStream | undefined;
  for (const [end, owner] of openStreams) {
    if (!owner || !same(owner)) continue;
    count += 1;
    oldest ??= end;
  }
  return count > limit ? oldest : undefined;
}

/**
 * Counts a stream as open until the returned function is called (the gauge follows the set).
 * With an owner, the session's and the user's oldest streams beyond the caps are ended
 * (`superseded`): a tab left open does not lock out a new one, and no session holds more.
 */
export function trackOpenStream(end: EndStream, owner?: StreamOwner): () => void {
  openStreams.set(end, owner);
  getMetrics().sseClients.set(openStreams.size);
  if (owner) {
    // Ending a stream removes it from the map (its untrack runs), so each loop ends one more.
    for (let ended = oldestBeyond(STREAMS_PER_SESSION, (o) => o.sessionId === owner.sessionId && o.userId === owner.userId); ended; ended = oldestBeyond(STREAMS_PER_SESSION, (o) => o.sessionId === owner.sessionId && o.userId === owner.userId)) {
      supersede(ended);
    }
    for (let ended = oldestBeyond(STREAMS_PER_USER, (o) => o.userId === owner.userId); ended; ended = oldestBeyond(STREAMS_PER_USER, (o) => o.userId === owner.userId)) {
      supersede(ended);
    }
  }
  return () => {
    openStreams.delete(end);
    getMetrics().sseClients.set(openStreams.size);
  };
}

function supersede(end: EndStream): void {
  end('superseded');
  // A stream whose end did not untrack it (already closing) must not be picked again.
  openStreams.delete(end);
  getMetrics().sseClients.set(openStreams.size);
}

/** The functions that end each open stream, as they are now. */
export function openStreamEnders(): EndStream[] {
  return [...openStreams.keys()];
}

/** How many streams this process has open. */
export function openEventStreamCount(): number {
  return openStreams.size;
}
