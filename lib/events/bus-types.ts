// The bus interface, apart from both implementations: bus.ts (in-process, and the choice of bus)
// imports pg-bus.ts, and pg-bus.ts needs only these types, so the dependency runs one way.
import type { PortalEvent } from './types';

export type EventListener = (event: PortalEvent) => void;

/**
 * Fans committed portal events out to the SSE streams of this process. The in-process bus is
 * enough for one instance; a PostgreSQL LISTEN/NOTIFY bus implements the same interface for
 * several (publish notifies ids, each instance loads the rows and calls its listeners).
 */
export interface EventBus {
  /** Call only after the transaction that wrote the events has committed. */
  publish(events: readonly PortalEvent[]): void;
  subscribe(listener: EventListener): () => void;
  listenerCount(): number;
}
