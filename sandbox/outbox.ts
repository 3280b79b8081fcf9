import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { SqlRunner } from '@/shared/sql-runner';
import type { FaultState } from './faults';
import type { ReservationResultEvent } from './processor';
import { shapeEvent } from './shapes';

export interface DeliveryContext {
  sql: SqlRunner;
  now: () => Date;
  retrySchedule: number[];
  faults: FaultState;
  random?: () => number;
}

export const DELIVERY_TIMEOUT_MS = 5_000;
// A claimed delivery that never finished (crash) becomes due again after this lease.
const LEASE_MS = 60_000;

/**
 * Writes one outbox row per subscription, in the caller's transaction. The payload is stored as
 * sent (in the `shapes` set now), so every retry of a message carries the same bytes.
 */
export async function enqueueEvent(tx: SqlRunner, ctx: DeliveryContext, event: ReservationResultEvent): Promise<void> {
  const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
  const due = new Date(ctx.now().getTime() + (ctx.faults.faults.webhook?.delayMs ?? 0));
  await tx.query(
    `INSERT INTO sandbox.outbox (subscription_id, message_id, payload, next_attempt_at, created_at)
     SELECT id, $1, $2, $3, $4 FROM sandbox.webhooks ORDER BY created_at`,
    [messageId, JSON.stringify(shapeEvent(event, ctx.faults.shapes)), due, ctx.now()],
  );
}

/** Delay before the next attempt: the schedule's step (its last one repeats) with ±25 % jitter. */
export function backoffMs(schedule: number[], attempts: number, random: () => number = Math.random): number {
  if (schedule.length === 0) return 0;
  const base = schedule[Math.min(attempts - 1, schedule.length - 1)] ?? 0;
  return Math.round(base * (0.75 + random() * 0.5));
}

async function send(url: string, secret: string, messageId: string, payload: string): Promise<{ ok: boolean; error?: string }> {
  // Signed with the real clock: receivers check the timestamp against theirs (±5 minutes).
  const timestamp = new Date();
  const signature = new Webhook(secret).sign(messageId, timestamp, payload);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': messageId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
        'user-agent': 'reservation-sandbox',
      },
      body: payload,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => undefined);
    return response.ok ? { ok: true } : { ok: false, error: `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.name : 'network error' };
  }
}

type Claimed = { id: string; message_id: string; payload: string; attempts: number; url: string; secret: string; subscription_id: string };

/** Attempts every delivery due now (each at most once per call); returns how many were attempted. */
export async function deliverDue(ctx: DeliveryContext): Promise<number> {
  const now = ctx.now();
  const { rows } = await ctx.sql.query<Claimed>(
    `UPDATE sandbox.outbox o SET attempts = o.attempts + 1, next_attempt_at = $2
     FROM sandbox.webhooks w
     WHERE w.id = o.subscription_id AND o.id IN (
       SELECT id FROM sandbox.outbox WHERE delivered_at IS NULL AND next_attempt_at <= $1 ORDER BY id LIMIT 200 FOR UPDATE SKIP LOCKED)
     RETURNING o.id::text AS id, o.message_id, o.payload, o.attempts, w.url, w.secret, o.subscription_id`,
    [now, new Date(now.getTime() + LEASE_MS)],
  );
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  const webhookFaults = ctx.faults.faults.webhook ?? {};
  if (webhookFaults.reorder) rows.reverse();
  const bySubscription = new Map<string, Claimed[]>();
  for (const row of rows) bySubscription.set(row.subscription_id, [...(bySubscription.get(row.subscription_id) ?? []), row]);
  await Promise.all(
    [...bySubscription.values()].map(async (list) => {
      for (const row of list) {
        let result = await send(row.url, row.secret, row.message_id, row.payload);
        if (webhookFaults.duplicate) {
          const again = await send(row.url, row.secret, row.message_id, row.payload);
          result = result.ok ? result : again;
        }
        const at = ctx.now();
        if (result.ok) {
          await ctx.sql.query(`UPDATE sandbox.outbox SET delivered_at = $2, last_error = NULL WHERE id = $1`, [row.id, at]);
        } else {
          const next = new Date(at.getTime() + backoffMs(ctx.retrySchedule, row.attempts, ctx.random));
          await ctx.sql.query(`UPDATE sandbox.outbox SET next_attempt_at = $2, last_error = $3 WHERE id = $1`, [row.id, next, result.error ?? 'failed']);
        }
      }
    }),
  );
  return rows.length;
}
