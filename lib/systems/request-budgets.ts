import 'server-only';
import type { Database } from '@/lib/db';
import { singleton } from '@/lib/singleton';
import { readRequestBudgets } from './store';

/** How long this process keeps the systems' own request budgets before reading them again. */
export const REQUEST_BUDGETS_TTL_MS = 10_000;

const held = singleton('system-request-budgets', () => ({ at: 0, budgets: null as Promise<ReadonlyMap<string, number>> | null, db: null as Database | null }));

/**
 * The request budgets admins set per system (systems.request_budget_per_hour), read at most every
 * 10 s per process: views ask on every request, and a change made on another instance is in force
 * here within that.
 */
export function requestBudgets(db: Database, now = Date.now()): Promise<ReadonlyMap<string, number>> {
  if (held.budgets && held.db === db && now - held.at < REQUEST_BUDGETS_TTL_MS) return held.budgets;
  const budgets = readRequestBudgets(db);
  Object.assign(held, { at: now, budgets, db });
  budgets.catch(() => {
    if (held.budgets === budgets) held.budgets = null;
  });
  return budgets;
}

/** Forgets what was read (after an admin's change in this process). */
export function forgetRequestBudgets(): void {
  held.budgets = null;
}
