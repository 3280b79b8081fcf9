import 'server-only';
import { eq } from 'drizzle-orm';
import type { Actor } from '@/lib/admin/audit';
import { recordAudit } from '@/lib/admin/audit';
import type { Database } from '@/lib/db';
import { jobLeases, retentionSettings, type StoredJobResult } from '@/lib/db/schema';
import { RETENTION_BOUNDS, type Env } from '@/lib/env';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';

// How long each age-based retention class is kept (issue 37, decision 034): an admin's value
// (Admin → Retention, stored in retention_settings), else the environment's, else the default.

export const AGED_CLASSES = ['request-13m', 'email-body-90d', 'email-meta-13m', 'audit-24m'] as const;
export type AgedClass = (typeof AGED_CLASSES)[number];
export type RetentionUnit = keyof typeof RETENTION_BOUNDS;

export const isAgedClass = (value: string): value is AgedClass => (AGED_CLASSES as readonly string[]).includes(value);

type RetentionEnv = Pick<Env, 'RETENTION_REQUEST_MONTHS' | 'RETENTION_EMAIL_BODY_DAYS' | 'RETENTION_EMAIL_META_MONTHS' | 'RETENTION_AUDIT_MONTHS'>;

/** Each class's unit, default, the environment variable that may set it, and its word in the catalogues (ICU keys take no hyphen). */
export const RETENTION_PERIODS = {
  'request-13m': { unit: 'months', defaultAmount: 13, variable: 'RETENTION_REQUEST_MONTHS', key: 'request' },
  'email-body-90d': { unit: 'days', defaultAmount: 90, variable: 'RETENTION_EMAIL_BODY_DAYS', key: 'emailBody' },
  'email-meta-13m': { unit: 'months', defaultAmount: 13, variable: 'RETENTION_EMAIL_META_MONTHS', key: 'emailMeta' },
  'audit-24m': { unit: 'months', defaultAmount: 24, variable: 'RETENTION_AUDIT_MONTHS', key: 'audit' },
} as const satisfies Record<AgedClass, { unit: RetentionUnit; defaultAmount: number; variable: keyof RetentionEnv; key: string }>;

export type RetentionSource = 'admin' | 'environment' | 'default';

export interface RetentionPeriod {
  retentionClass: AgedClass;
  amount: number;
  unit: RetentionUnit;
  source: RetentionSource;
  min: number;
  max: number;
}

export type RetentionPolicy = Record<AgedClass, RetentionPeriod>;

/** The effective period of every class: the admin's, the environment's or the default, and which. */
export async function readRetentionPolicy(db: Database, settings: RetentionEnv): Promise<RetentionPolicy> {
  const saved = new Map((await db.select().from(retentionSettings)).map((r) => [r.retentionClass, r.amount]));
  const policy = {} as RetentionPolicy;
  for (const retentionClass of AGED_CLASSES) {
    const { unit, defaultAmount, variable } = RETENTION_PERIODS[retentionClass];
    const fromEnv = settings[variable];
    const own = saved.get(retentionClass);
    const [amount, source]: [number, RetentionSource] = own !== undefined ? [own, 'admin'] : fromEnv !== undefined ? [fromEnv, 'environment'] : [defaultAmount, 'default'];
    policy[retentionClass] = { retentionClass, amount, unit, source, ...RETENTION_BOUNDS[unit] };
  }
  return policy;
}

/**
 * An admin's input for a class, checked: a whole number within the unit's bounds; empty (null)
 * gives the class back to the environment or the default. Bad input is a 400 with a sentence.
 */
export function parseRetentionInput(retentionClass: string, input: string): { retentionClass: AgedClass; amount: number | null } {
  if (!isAgedClass(retentionClass)) throw new ApiError('bad_request', msg('errors.retentionUnknownClass'));
  const { unit } = RETENTION_PERIODS[retentionClass];
  const { min, max } = RETENTION_BOUNDS[unit];
  const trimmed = input.trim();
  if (trimmed === '') return { retentionClass, amount: null };
  const amount = /^\d{1,6}$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isSafeInteger(amount) || amount < min || amount > max) {
    throw new ApiError('bad_request', msg('errors.retentionOutOfRange', { unit, min, max }));
  }
  return { retentionClass, amount };
}

/**
 * Sets (or, with null, clears) a class's period, recorded in the audit log with the effective
 * period before and after; nothing is recorded when nothing changed.
 */
export async function saveRetentionSetting(
  db: Database,
  actor: Actor,
  settings: RetentionEnv,
  retentionClass: string,
  input: string,
): Promise<RetentionPeriod> {
  const parsed = parseRetentionInput(retentionClass, input);
  return db.transaction(async (tx) => {
    const before = (await readRetentionPolicy(tx, settings))[parsed.retentionClass];
    if (parsed.amount === null) {
      await tx.delete(retentionSettings).where(eq(retentionSettings.retentionClass, parsed.retentionClass));
    } else {
      await tx
        .insert(retentionSettings)
        .values({ retentionClass: parsed.retentionClass, amount: parsed.amount })
        .onConflictDoUpdate({ target: retentionSettings.retentionClass, set: { amount: parsed.amount, updatedAt: new Date() } });
    }
    const after = (await readRetentionPolicy(tx, settings))[parsed.retentionClass];
    if (before.amount !== after.amount || before.source !== after.source) {
      await recordAudit(tx, actor, {
        action: 'retention.settings',
        targetType: 'portal',
        targetName: parsed.retentionClass,
        detail: { retentionClass: parsed.retentionClass, unit: after.unit, from: before.amount, to: after.amount, fromSource: before.source, toSource: after.source },
      });
    }
    return after;
  });
}

/** The instant before which a class's rows are due: `now` less the period (calendar months in UTC, the day clamped to the month's end). */
export function cutoffOf(period: Pick<RetentionPeriod, 'amount' | 'unit'>, now: Date): Date {
  if (period.unit === 'days') return new Date(now.getTime() - period.amount * 86_400_000);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() - period.amount;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(now.getUTCDate(), lastDay), now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds(), now.getUTCMilliseconds()));
}

export const RETENTION_JOB = 'retention';

export interface RetentionJobState {
  running: boolean;
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  lastResult: StoredJobResult | null;
}

/** When the retention job last ran and what it changed (for the admin page). */
export async function readRetentionJobState(db: Database, now: Date = new Date()): Promise<RetentionJobState> {
  const [row] = await db.select().from(jobLeases).where(eq(jobLeases.name, RETENTION_JOB));
  return {
    running: !!row?.leaseUntil && row.leaseUntil.getTime() > now.getTime(),
    lastStartedAt: row?.lastStartedAt ?? null,
    lastFinishedAt: row?.lastFinishedAt ?? null,
    lastResult: row?.lastResult ?? null,
  };
}
