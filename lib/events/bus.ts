import 'server-only';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import type { EventBus, EventListener } from './bus-types';
import { PgEventBus } from './pg-bus';
import type { PortalEvent } from './types';
import { singleton } from '@/lib/singleton';

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
