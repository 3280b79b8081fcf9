// The bus interface, apart from both implementations: bus.ts (in-process, and the choice of bus)
// imports pg-bus.ts, and pg-bus.ts needs only these types, so the dependency runs one way.
import type { PortalEvent } from './types';

export type EventListener = (event: PortalEvent) => void;

/** Called with the id of a user whose access changed (session version, assigned systems), or ALL_USERS. */
export type AccessListener = (userId: string) => void;

/**
 * Fans committed portal events out to the SSE streams of this process. The in-process bus is
 * enough for one instance; a PostgreSQL LISTEN/NOTIFY bus implements the same interface for
 * several (publish notifies ids, each instance loads the rows and calls its listeners).
 * It also carries access notices (ACCESS_CHANNEL), so that open streams re-check their user.
 */
export interface EventBus {
  /** Call only after the transaction that wrote the events has committed. */
  publish(events: readonly PortalEvent[]): void;
  subscribe(listener: EventListener): () => void;
  listenerCount(): number;
  /** Delivers an access notice to this process's access listeners. */
  announceAccessChange(userId: string): void;
  subscribeAccess(listener: AccessListener): () => void;
}
