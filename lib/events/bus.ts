import 'server-only';
import { getDb, type DbHandle } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { ACCESS_CHANNEL } from '@/lib/auth/access-notices';
import type { AccessListener, EventBus, EventListener } from './bus-types';
import { PgEventBus } from './pg-bus';
import type { PortalEvent } from './types';
import { singleton } from '@/lib/singleton';

function callEach<T>(listeners: Iterable<(value: T) => void>, value: T): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch {
      // One broken stream must not keep the event from the others.
    }
  }
}

export class InProcessEventBus implements EventBus {
  private readonly listeners = new Set<EventListener>();
  private readonly accessListeners = new Set<AccessListener>();

  publish(events: readonly PortalEvent[]): void {
    for (const event of events) callEach(this.listeners, event);
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

  announceAccessChange(userId: string): void {
    callEach(this.accessListeners, userId);
  }

  subscribeAccess(listener: AccessListener): () => void {
    this.accessListeners.add(listener);
    return () => {
      this.accessListeners.delete(listener);
    };
  }
}

/**
 * Hands the access notices of a database (ACCESS_CHANNEL) to `onNotice`, for the in-process bus:
 * PGlite's own LISTEN, or a dedicated connection on PostgreSQL (tests; in production the
 * PostgreSQL bus listens on its own connection). Resolves to a function that stops listening.
 */
export async function listenForAccessNotices(handle: DbHandle, onNotice: (userId: string) => void): Promise<() => Promise<void>> {
  if (handle.driver.kind === 'pglite') return handle.driver.client.listen(ACCESS_CHANNEL, onNotice);
  const client = await handle.driver.client.connect();
  client.on('notification', (message) => {
    if (message.channel === ACCESS_CHANNEL && message.payload) onNotice(message.payload);
  });
  await client.query(`LISTEN ${ACCESS_CHANNEL}`);
  return async () => {
    await client.query(`UNLISTEN ${ACCESS_CHANNEL}`).catch(() => undefined);
    client.release();
  };
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

const accessListening = singleton('access-notice-listener', () => ({ stop: undefined as (() => Promise<void>) | undefined }));

/**
 * Starts listening at server start, so no SSE client ever waits for the first LISTEN; on PGlite,
 * follows the database's access notices (PostgreSQL's bus listens to them on its own connection).
 */
export async function startEventBus(): Promise<void> {
  const bus = getEventBus();
  if (bus instanceof PgEventBus) await bus.start();
  else if (!accessListening.stop) {
    accessListening.stop = await listenForAccessNotices(await getDb(), (userId) => bus.announceAccessChange(userId));
  }
}

/** Stops listening (shutdown): the PostgreSQL listener connection, or PGlite's LISTEN. */
export async function stopEventBus(): Promise<void> {
  const bus = getEventBus();
  if (bus instanceof PgEventBus) await bus.stop();
  const stop = accessListening.stop;
  accessListening.stop = undefined;
  await stop?.().catch((error: unknown) => log.warn('could not stop listening for access notices', { error }));
}
