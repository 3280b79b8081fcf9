import 'server-only';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { PgEventBus } from './pg-bus';
import type { PortalEvent } from './types';
import { singleton } from '@/lib/singleton';

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

export class InProcessEventBus implements EventBus {
  private readonly listeners = new Set<EventListener>();

  publish(events: readonly PortalEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch {
          // One broken stream must not keep the event from the others.
        }
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  listenerCount(): number {
    return this.listeners.size;
  }
}

/**
 * The process's bus: PostgreSQL LISTEN/NOTIFY when the database is PostgreSQL (several instances
 * may share it), in-process otherwise (PGlite is one process's database anyway).
 */
export function getEventBus(): EventBus {
  return singleton<EventBus>('event-bus', () =>
    env.databaseKind === 'postgres' && env.DATABASE_URL
      ? new PgEventBus({
          db: async () => (await getDb()).db,
          connection: { connectionString: env.DATABASE_URL },
        })
      : new InProcessEventBus(),
  );
}

/** Starts listening at server start, so no SSE client ever waits for the first LISTEN. */
export async function startEventBus(): Promise<void> {
  const bus = getEventBus();
  if (bus instanceof PgEventBus) await bus.start();
}
