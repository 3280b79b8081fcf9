import type { SqlRunner } from '@/shared/sql-runner';
import { deliverDue, enqueueEvent, type DeliveryContext } from './outbox';
import { releaseNoShows } from './booking-rules';
import { processNext } from './processor';

export interface WorkSettings {
  sql: SqlRunner;
  now: () => Date;
  horizonDays: number;
  quotaPerGroup: number;
  scheduleTimeZone?: string;
  delivery: DeliveryContext;
}

/** One round of background work: the queued requests (up to 500), then the webhooks due. */
export async function workOnce(s: WorkSettings): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const processed = await processNext({
      sql: s.sql,
      now: s.now,
      horizonDays: s.horizonDays,
      quota: s.quotaPerGroup,
      scheduleTimeZone: s.scheduleTimeZone,
      enqueue: (tx, event) => enqueueEvent(tx, s.delivery, event),
    });
    if (!processed) break;
  }
  await releaseNoShows(s.sql, s.now());
  await deliverDue(s.delivery);
}

export interface BackgroundLoop {
  /** Starts polling (no-op when running). */
  start(): void;
  /** Stops polling and waits for the round in progress. */
  stop(): Promise<void>;
  /** Runs a round at once (no-op when stopped): an accepted request is waiting. */
  kick: () => void;
}

/** Runs `work` every `pollIntervalMs` after the previous round ends, one round at a time; errors are dropped. */
export function backgroundLoop(work: () => Promise<void>, pollIntervalMs: number): BackgroundLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  function tick(): void {
    if (stopped || running) return;
    running = work()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, pollIntervalMs);
      });
  }

  function kick(): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, 0);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      kick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
    kick,
  };
}
