import 'server-only';
import { eq, inArray } from 'drizzle-orm';
import { ruleSetSchema, type RuleSet } from '@/lib/booking-rules/rule-set';
import type { Database } from '@/lib/db';
import { queryBuilder, selectRows, type JsonRead } from '@/lib/db/read-together';
import { systemBookingRules } from '@/lib/db/schema';
import { log } from '@/lib/log';

/**
 * The owner of `system_booking_rules`: a system's booking rules by group of rooms (issue 35), read
 * through the model's schema. A system without stated rules has none (null): each room keeps the
 * system's quota and horizon.
 */

function parseStored(deviceId: string, stored: unknown): RuleSet | null {
  const parsed = ruleSetSchema.safeParse(stored);
  if (parsed.success) return parsed.data;
  // Written through the same schema, so only a hand-edited or older row gets here: no rules rather than wrong ones.
  log.warn('stored booking rules do not fit the model; the system is treated as having none', { deviceId, issues: parsed.error.issues.length });
  return null;
}

export async function readBookingRules(db: Database, deviceId: string): Promise<RuleSet | null> {
  const [row] = await db.select({ rules: systemBookingRules.rules }).from(systemBookingRules).where(eq(systemBookingRules.deviceId, deviceId)).limit(1);
  return row ? parseStored(deviceId, row.rules) : null;
}

/** readBookingRules as one read of a `readTogether` (lib/db/read-together.ts): the week grid reads it with its other inputs. */
export function bookingRulesRead(deviceId: string): JsonRead<RuleSet | null> {
  const rows = selectRows(queryBuilder.select({ rules: systemBookingRules.rules }).from(systemBookingRules).where(eq(systemBookingRules.deviceId, deviceId)));
  return {
    query: rows.query,
    parse: (json) => {
      const [row] = rows.parse(json);
      return row ? parseStored(deviceId, row.rules) : null;
    },
  };
}

/** Several systems' rules at once (pages listing systems). */
export async function readBookingRulesOf(db: Database, deviceIds: readonly string[]): Promise<Map<string, RuleSet>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db.select().from(systemBookingRules).where(inArray(systemBookingRules.deviceId, [...deviceIds]));
  const out = new Map<string, RuleSet>();
  for (const row of rows) {
    const rules = parseStored(row.deviceId, row.rules);
    if (rules) out.set(row.deviceId, rules);
  }
  return out;
}

/** Replaces a system's rules; null or no groups removes them (back to the per-room quota). */
export async function writeBookingRules(db: Database, deviceId: string, rules: RuleSet | null): Promise<void> {
  if (!rules || rules.groups.length === 0) {
    await db.delete(systemBookingRules).where(eq(systemBookingRules.deviceId, deviceId));
    return;
  }
  const value = ruleSetSchema.parse(rules);
  await db
    .insert(systemBookingRules)
    .values({ deviceId, rules: value, updatedAt: new Date() })
    .onConflictDoUpdate({ target: systemBookingRules.deviceId, set: { rules: value, updatedAt: new Date() } });
}
