import 'server-only';
import type { Client, ClientConfig, Notification } from 'pg';
import type { Database } from '@/lib/db';
import { log } from '@/lib/log';
import { ACCESS_CHANNEL, ALL_USERS } from '@/lib/auth/access-notices';
import type { AccessListener, EventBus, EventListener } from './bus-types';
import { latestEventId, loadEventsAfter } from './store';
import type { PortalEvent } from './types';

/** The channel migration 0007 notifies, with the new event's id as the only payload. */
export const EVENT_CHANNEL = 'portal_events';
/** Waits between reconnection attempts of the listener connection (the last one repeats). */
export const RECONNECT_DELAYS_MS = [100, 250, 500, 1_000, 2_000, 5_000] as const;
/** Safety net: a catch-up from the table and a ping of the listener this often. */
export const SAFETY_INTERVAL_MS = 10_000;
const CATCH_UP_BATCH = 500;
const PING_TIMEOUT_MS = 5_000;

export interface PgEventBusOptions {
  /** Pooled queries for loading events (the listener connection only listens). */
  db: () => Promise<Database>;
  /** Settings for the dedicated LISTEN connection. */
  connection: ClientConfig;
  reconnectDelaysMs?: readonly number[];
  safetyIntervalMs?: number;
}

export interface PgEventBusStats {
  listening: boolean;
  /** How many times the listener connection was (re)established. */
  connections: number;
  notifications: number;
  lastDeliveredId: number;
}

/**
 * An EventBus for several portal instances sharing one PostgreSQL. Appending an event notifies
 * `portal_events` with its id inside the writer's transaction (a trigger), so a notification exists
 * exactly when the commit happened. Each instance keeps one dedicated LISTEN connection; a
 * notification (or a local publish) makes it load every event after the last one it delivered from
 * the table, in id order, and hand them to its listeners. Ids become visible in id order (appenders
 * hold an advisory lock until commit), so "everything after the last delivered id" never skips one.
 * When the connection drops it reconnects with backoff, listens again and catches up from the
 * table, so nothing committed meanwhile is lost; each event is delivered once per instance.
 * The same connection listens to access notices (ACCESS_CHANNEL) and hands them to the access
 * listeners; after a reconnect, when notices may have been missed, it announces ALL_USERS.
 */
export class PgEventBus implements EventBus {
  private readonly listeners = new Set<EventListener>();
  private readonly accessListeners = new Set<AccessListener>();
  private readonly delays: readonly number[];
  private readonly safetyMs: number;
  private lastDelivered = 0;
  private started: Promise<void> | undefined;
  private stopped = false;
  private client: Client | undefined;
  private clientPid: number | null = null;
  private catching: Promise<void> | undefined;
  private dirty = false;
  private safetyTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private readonly counters = { connections: 0, notifications: 0 };
  private firstListen: { promise: Promise<void>; resolve: () => void };

  constructor(private readonly options: PgEventBusOptions) {
    this.delays = options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS;
    this.safetyMs = options.safetyIntervalMs ?? SAFETY_INTERVAL_MS;
    let resolve = () => undefined as void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.firstListen = { promise, resolve };
  }

  /**
   * Records the current end of the log (events before it are history, served to SSE clients by
   * their own replay) and starts listening. Resolves once the first LISTEN is in place, or when
   * the first attempt failed (reconnection goes on in the background).
   */
  start(): Promise<void> {
    this.started ??= (async () => {
      const db = await this.options.db();
      this.lastDelivered = Math.max(this.lastDelivered, await latestEventId(db));
      void this.listenLoop();
      this.safetyTimer = setInterval(() => this.safetyCheck(), this.safetyMs);
      this.safetyTimer.unref();
      await this.firstListen.promise;
    })().catch((error: unknown) => {
      this.started = undefined;
      throw error;
    });
    return this.started;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.safetyTimer);
    clearTimeout(this.retryTimer);
    this.wake?.();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
    await this.catching?.catch(() => undefined);
  }

  /**
   * The writer's commit has already notified every instance; on this one, look at the table now
   * rather than wait for the notification's round trip. Delivery still goes through the ordered
   * catch-up, so nothing is delivered twice or out of order.
   */
  publish(events: readonly PortalEvent[]): void {
    if (events.some((e) => e.id > this.lastDelivered)) this.requestCatchUp();
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    void this.start().catch(() => undefined);
    return () => {
      this.listeners.delete(listener);
    };
  }

  listenerCount(): number {
    return this.listeners.size;
  }

  announceAccessChange(userId: string): void {
    for (const listener of this.accessListeners) {
      try {
        listener(userId);
      } catch {
        // One broken stream must not keep the notice from the others.
      }
    }
  }

  subscribeAccess(listener: AccessListener): () => void {
    this.accessListeners.add(listener);
    void this.start().catch(() => undefined);
    return () => {
      this.accessListeners.delete(listener);
    };
  }

  stats(): PgEventBusStats {
    return {
      listening: this.client !== undefined,
      connections: this.counters.connections,
      notifications: this.counters.notifications,
      lastDeliveredId: this.lastDelivered,
    };
  }

  /** The backend pid of the LISTEN connection (tests terminate it), or null while disconnected. */
  listenerPid(): number | null {
    return this.client ? this.clientPid : null;
  }

  private async listenLoop(): Promise<void> {
    let attempt = 0;
    while (!this.stopped) {
      const lost = await this.listenOnce().catch((error: unknown) => {
        log.warn('event listener: could not connect', { error });
        return undefined;
      });
      if (lost) {
        attempt = 0;
        await lost.closed;
        if (!this.stopped) log.warn('event listener: connection lost; reconnecting');
      }
      // The first attempt is over either way: start() must not hang on a database that is down.
      this.firstListen.resolve();
      if (this.stopped) break;
      const delay = this.delays[Math.min(attempt, this.delays.length - 1)] ?? 1_000;
      attempt += 1;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.retryTimer = setTimeout(resolve, delay);
        this.retryTimer.unref();
      });
    }
  }

  /** Connects and listens; `closed` settles when the connection is gone. */
  private async listenOnce(): Promise<{ closed: Promise<void> }> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({
      application_name: 'portal-event-listener',
      keepAlive: true,
      ...this.options.connection,
    });
    let markLost = () => undefined as void;
    const lost = new Promise<void>((resolve) => (markLost = resolve));
    client.on('error', () => markLost());
    client.on('end', () => markLost());
    client.on('notification', (message: Notification) => this.onNotification(message));
    try {
      await client.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await client.query(`LISTEN ${EVENT_CHANNEL}`);
      await client.query(`LISTEN ${ACCESS_CHANNEL}`);
      if (this.stopped) throw new Error('stopped');
      this.clientPid = rows[0]?.pid ?? null;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    this.counters.connections += 1;
    // Whatever committed while nobody listened is in the table.
    this.requestCatchUp();
    // Access notices sent while nobody listened are gone: every stream re-checks its user.
    if (this.counters.connections > 1) this.announceAccessChange(ALL_USERS);
    this.firstListen.resolve();
    const closed = lost.then(async () => {
      if (this.client === client) this.client = undefined;
      this.clientPid = null;
      await client.end().catch(() => undefined);
    });
    return { closed };
  }

  private onNotification(message: Notification): void {
    if (message.channel === ACCESS_CHANNEL) {
      if (message.payload) this.announceAccessChange(message.payload);
      return;
    }
    if (message.channel !== EVENT_CHANNEL) return;
    this.counters.notifications += 1;
    const id = Number(message.payload);
    // A payload we cannot read still means "something new": look at the table.
    if (!Number.isFinite(id) || id > this.lastDelivered) this.requestCatchUp();
  }

  private safetyCheck(): void {
    this.requestCatchUp();
    const client = this.client;
    if (!client) return;
    // A half-open TCP connection never says it died; a ping that does not come back ends it.
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('ping timed out')), PING_TIMEOUT_MS).unref());
    Promise.race([client.query('SELECT 1'), timeout]).catch(() => {
      client.emit('error', new Error('listener ping failed'));
    });
  }

  /** Single-flight, coalescing catch-up: requests during a run cause one more run. */
  private requestCatchUp(): void {
    if (this.stopped) return;
    this.dirty = true;
    if (this.catching) return;
    this.catching = this.drain().finally(() => {
      this.catching = undefined;
      if (this.dirty) this.requestCatchUp();
    });
  }

  private async drain(): Promise<void> {
    while (this.dirty && !this.stopped) {
      this.dirty = false;
      try {
        const db = await this.options.db();
        for (;;) {
          const batch = await loadEventsAfter(db, this.lastDelivered, 'all', CATCH_UP_BATCH);
          for (const event of batch) {
            if (event.id <= this.lastDelivered) continue;
            this.lastDelivered = event.id;
            this.deliver(event);
          }
          if (batch.length < CATCH_UP_BATCH || this.stopped) break;
        }
      } catch (error) {
        // The database is unreachable: try again shortly; the events wait in the table.
        log.warn('event bus: catch-up failed; retrying', { error });
        setTimeout(() => this.requestCatchUp(), 1_000).unref();
        return;
      }
    }
  }

  private deliver(event: PortalEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // One broken stream must not keep the event from the others.
      }
    }
  }
}
