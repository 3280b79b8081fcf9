import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { recordAudit, type Actor } from '@/lib/admin/audit';
import type { Database } from '@/lib/db';
import { adminAudit, jobLeases, mailOutbox, mirrorReleasedNoShows, portalEvents, reservationRequests, roomClosures, webhookEvents } from '@/lib/db/schema';
import {
  anonymiseAudit,
  anonymiseClosures,
  anonymiseMailMeta,
  anonymisePortalEvents,
  anonymiseReleasedNoShows,
  anonymiseRequests,
  anonymiseWebhookEvents,
  dropMailBodies,
  repeatStep,
  type AnonymiseStep,
  type Placeholders,
} from './anonymise';
import { cutoffOf, RETENTION_JOB, type AgedClass, type RetentionPolicy } from './retention-settings';

// The retention job (issue 37, decision 034): what is older than its class's period is anonymised,
// in batches, by one instance at a time. The lease is a row of job_leases, claimed with
// UPDATE ... WHERE lease_until < now() (PostgreSQL and PGlite alike, as the closure and mail
// workers claim their rows) and renewed between batches; a crashed holder's lease expires and
// the next run continues with the rows left. A run that changed something says how much, per
// step, in the audit log (counts only, no row's content).

/** Who the audit log names for the job's runs: no person. */
export const RETENTION_ACTOR: Actor = { id: null, name: 'Retention job' };

/** One step: a table (or an e-mail's body), the class whose age decides, and the condition for rows older than the cutoff. */
interface RetentionStep {
  key: string;
  retentionClass: AgedClass;
  run: AnonymiseStep;
  olderThan: (cutoff: Date) => SQL | undefined;
}

// Ages are read from when a row came to be; a closure from when it ended (a long one stays
// readable while it lasts), a remembered no-show from the booking's start, done closures only
// (their job no longer reads them).
export const RETENTION_STEPS: readonly RetentionStep[] = [
  { key: 'reservation_requests', retentionClass: 'request-13m', run: anonymiseRequests, olderThan: (c) => lte(reservationRequests.createdAt, c) },
  { key: 'portal_events', retentionClass: 'request-13m', run: anonymisePortalEvents, olderThan: (c) => lte(portalEvents.createdAt, c) },
  { key: 'webhook_events', retentionClass: 'request-13m', run: anonymiseWebhookEvents, olderThan: (c) => lte(webhookEvents.receivedAt, c) },
  { key: 'room_closures', retentionClass: 'request-13m', run: anonymiseClosures, olderThan: (c) => and(lte(roomClosures.endsAt, c), eq(roomClosures.status, 'done')) },
  { key: 'mirror_released_no_shows', retentionClass: 'request-13m', run: anonymiseReleasedNoShows, olderThan: (c) => lte(mirrorReleasedNoShows.startTime, c) },
  { key: 'mail_outbox.body', retentionClass: 'email-body-90d', run: dropMailBodies, olderThan: (c) => lte(mailOutbox.createdAt, c) },
  { key: 'mail_outbox', retentionClass: 'email-meta-13m', run: anonymiseMailMeta, olderThan: (c) => lte(mailOutbox.createdAt, c) },
  { key: 'admin_audit', retentionClass: 'audit-24m', run: anonymiseAudit, olderThan: (c) => lte(adminAudit.createdAt, c) },
];

export interface RetentionDeps {
  db: Database;
  /** The effective periods (lib/personal-data/retention-settings.ts), read at the start of each run. */
  policy: () => Promise<RetentionPolicy>;
  placeholders: Placeholders;
  now?: () => Date;
  /** Rows per batch (one statement, one transaction each); default 500. */
  batchSize?: number;
  /** How long a run's lease lasts without being renewed; default 120 s. */
  leaseSeconds?: number;
}

export interface RetentionRunOptions {
  /** Asked between batches: true stops the run there (shutdown), the rest left for the next. */
  shouldStop?: () => boolean;
  /** At most this many batches (tests: a run stopped after one). */
  maxBatches?: number;
}

export type RetentionRunResult =
  | { status: 'busy' }
  | { status: 'done'; counts: Record<string, number>; complete: boolean; cutoffs: Record<AgedClass, Date> };

/** Takes the job's lease for `holder`, or returns false while another run holds it. */
async function claimLease(db: Database, holder: string, leaseSeconds: number): Promise<boolean> {
  await db.insert(jobLeases).values({ name: RETENTION_JOB }).onConflictDoNothing({ target: jobLeases.name });
  const claimed = await db
    .update(jobLeases)
    .set({ holder, leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})`, lastStartedAt: sql`now()` })
    .where(and(eq(jobLeases.name, RETENTION_JOB), or(isNull(jobLeases.leaseUntil), lte(jobLeases.leaseUntil, sql`now()`))))
    .returning({ name: jobLeases.name });
  return claimed.length === 1;
}

/** Keeps the lease while batches go on; false when it is no longer this run's (it expired and another took it). */
async function renewLease(db: Database, holder: string, leaseSeconds: number): Promise<boolean> {
  const renewed = await db
    .update(jobLeases)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(and(eq(jobLeases.name, RETENTION_JOB), eq(jobLeases.holder, holder)))
    .returning({ name: jobLeases.name });
  return renewed.length === 1;
}

/**
 * Batches one run does at most (100,000 rows at the default size; the hourly run continues). A
 * bound, so that a step whose rows were not marked cannot loop for ever: it stops, incomplete.
 */
export const MAX_BATCHES_PER_RUN = 200;

/**
 * One run: each step anonymises its class's rows older than the cutoff, a batch at a time, until
 * none is left (or the run is told to stop). Another run holding the lease makes this one `busy`.
 */
export async function runRetention(deps: RetentionDeps, options: RetentionRunOptions = {}): Promise<RetentionRunResult> {
  const { db } = deps;
  const holder = randomUUID();
  const leaseSeconds = deps.leaseSeconds ?? 120;
  const limit = deps.batchSize ?? 500;
  const maxBatches = options.maxBatches ?? MAX_BATCHES_PER_RUN;
  if (!(await claimLease(db, holder, leaseSeconds))) return { status: 'busy' };
  const now = deps.now?.() ?? new Date();
  const counts: Record<string, number> = {};
  let complete = true;
  let batches = 0;
  const policy = await deps.policy();
  const cutoffs = Object.fromEntries(Object.values(policy).map((p) => [p.retentionClass, cutoffOf(p, now)])) as Record<AgedClass, Date>;
  try {
    for (const step of RETENTION_STEPS) {
      const done = await repeatStep(db, step.run, step.olderThan(cutoffs[step.retentionClass]), { limit, placeholders: deps.placeholders, now }, {
        maxBatches: maxBatches - batches,
        shouldStop: options.shouldStop,
        betweenBatches: () => renewLease(db, holder, leaseSeconds),
        onBatch: (changed) => {
          batches += 1;
          if (changed > 0) counts[step.key] = (counts[step.key] ?? 0) + changed;
        },
      });
      if (!done.complete) {
        complete = false;
        break;
      }
    }
  } finally {
    // The counts of what was done are recorded even when a batch failed (each batch committed on its own).
    await db.transaction(async (tx) => {
      if (Object.keys(counts).length > 0) {
        await recordAudit(tx, RETENTION_ACTOR, { action: 'retention.run', targetType: 'portal', detail: { counts, complete } });
      }
      await tx
        .update(jobLeases)
        .set({ leaseUntil: null, holder: null, lastFinishedAt: sql`now()`, lastResult: { counts, complete } })
        .where(and(eq(jobLeases.name, RETENTION_JOB), eq(jobLeases.holder, holder)));
    });
  }
  return { status: 'done', counts, complete, cutoffs };
}
