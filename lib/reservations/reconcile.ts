import 'server-only';
import type { SqlRunner } from '@/lib/db/sql-runner';
import type { EventBus } from '@/lib/events/bus';
import { resolveOpenRequest } from '@/lib/events/store';
import type { PortalEvent } from '@/lib/events/types';
import { log } from '@/lib/log';
import type { Reservation, ServiceClient } from '@/lib/service';
import { NO_OUTCOME } from './reasons';

export const RECONCILE_INTERVAL_MS = 15_000;
const BATCH = 20;

export interface ReconcileDeps {
  sql: SqlRunner;
  client: ServiceClient;
  apiKeyFor: (deviceId: string) => Promise<string>;
  bus: EventBus;
}

type Row = Record<string, unknown>;

/**
 * Claims open requests older than `afterSeconds` (since they were last touched). The claim bumps
 * updated_at inside one statement with SKIP LOCKED, so across instances each request is checked by
 * one of them, and one that could not be checked now (service down) is tried again a period later.
 */
async function claimStale(sql: SqlRunner, afterSeconds: number): Promise<Row[]> {
  const { rows } = await sql.query(
    `UPDATE reservation_requests SET updated_at = now()
      WHERE id IN (SELECT id FROM reservation_requests
                    WHERE status IN ('sending', 'pending') AND updated_at < now() - make_interval(secs => $1)
                    ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        AND status IN ('sending', 'pending')
      RETURNING *`,
    [afterSeconds, BATCH],
  );
  return rows;
}

const sameInstant = (a: string, b: unknown) => Date.parse(a) === new Date(b as string | Date).getTime();

/** What the reservations say about one request: succeeded (with the reservation id) or not. */
async function judge(deps: ReconcileDeps, row: Row): Promise<{ succeeded: boolean; reservationId: string | null }> {
  const deviceId = row.device_id as string;
  const userId = row.resident_user_id as string | null;
  const apiKey = await deps.apiKeyFor(deviceId);
  const mine: Reservation[] = userId ? await deps.client.reservations.forUser(apiKey, userId) : [];
  if (row.kind === 'create') {
    const groupId = row.resident_group_id as string | null;
    let found = mine.find((r) => r.resourceId === row.resource_id && sameInstant(r.startTime, row.start_time) && sameInstant(r.endTime, row.end_time));
    if (!found && groupId) {
      // A group booking may be listed under the group only: look at the slot itself.
      const all = await deps.client.reservations.list(apiKey, deviceId, { pageSize: 100 }).toArray({ limit: 100_000 });
      found = all.find(
        (r) => r.resourceId === row.resource_id && r.ownerId === groupId && sameInstant(r.startTime, row.start_time) && sameInstant(r.endTime, row.end_time),
      );
    }
    return found ? { succeeded: true, reservationId: found.id } : { succeeded: false, reservationId: null };
  }
  const reservationId = row.reservation_id as string;
  const stillThere = userId
    ? mine.some((r) => r.id === reservationId)
    : (await deps.client.reservations.list(apiKey, deviceId, { pageSize: 100 }).toArray({ limit: 100_000 })).some((r) => r.id === reservationId);
  return { succeeded: !stillThere, reservationId };
}

/**
 * Resolves every request still open after `afterSeconds` by reading the reservations, so none is
 * left pending when its outcome never arrived. Returns the events it appended (also published).
 */
export async function reconcilePending(deps: ReconcileDeps, afterSeconds: number): Promise<PortalEvent[]> {
  const appended: PortalEvent[] = [];
  for (;;) {
    const claimed = await claimStale(deps.sql, afterSeconds);
    for (const row of claimed) {
      try {
        const verdict = await judge(deps, row);
        const events = await deps.sql.transaction((tx) =>
          resolveOpenRequest(tx, { requestId: row.id as string }, {
            succeeded: verdict.succeeded,
            errorCode: verdict.succeeded ? null : NO_OUTCOME,
            errorDescription: verdict.succeeded ? null : 'No outcome arrived from the reservation service.',
            reservationId: verdict.reservationId,
          }),
        );
        if (events.length > 0) deps.bus.publish(events);
        appended.push(...events);
      } catch (error) {
        // Tried again after another period (the claim moved updated_at).
        log.warn('could not reconcile a request', { requestId: row.id, error });
      }
    }
    if (claimed.length < BATCH) return appended;
  }
}

const globalForReconciler = globalThis as typeof globalThis & { __reconciler?: NodeJS.Timeout };

/** Runs reconcilePending every RECONCILE_INTERVAL_MS in the background (one timer per process). */
export function startReconciler(deps: () => Promise<ReconcileDeps>, afterSeconds: number, intervalMs = RECONCILE_INTERVAL_MS): void {
  if (globalForReconciler.__reconciler) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void deps()
      .then((d) => reconcilePending(d, afterSeconds))
      .catch((error: unknown) => log.warn('reconciliation pass failed', { error }))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  globalForReconciler.__reconciler = timer;
}
