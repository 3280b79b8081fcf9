import type { SqlRunner } from '@/shared/sql-runner';
import type { ErrorCode } from './processor';

/**
 * Booking rules as an installation configures them in its admin tool (issue 35), enforced when a
 * booking is processed: per group of rooms, bookings at a time, N in D calendar days, days ahead,
 * slots in a row, and release of unused bookings after an activation window. Written apart from
 * the portal's evaluation (lib/booking-rules/group-rules.ts) — calendar days by PostgreSQL's time
 * zones, counts by SQL — so that tests comparing the two prove something.
 * Set per system with PUT /_sandbox/rules/{deviceId}; a room in no group keeps the quota per room.
 */
export interface SandboxRuleGroup {
  resourceIds: string[];
  maxFuture: number | null;
  perWindow: { count: number; days: number } | null;
  daysAhead: number | null;
  maxConsecutive: number | null;
  activationMinutes: number | null;
}

export interface SandboxRules {
  timeZone: string;
  groups: SandboxRuleGroup[];
}

export async function readRules(tx: SqlRunner, deviceId: string): Promise<SandboxRules | null> {
  const { rows } = await tx.query<{ time_zone: string; groups: SandboxRuleGroup[] }>(`SELECT time_zone, groups FROM sandbox.booking_rules WHERE device_id = $1`, [deviceId]);
  const row = rows[0];
  return row ? { timeZone: row.time_zone, groups: row.groups } : null;
}

export async function writeRules(tx: SqlRunner, deviceId: string, rules: SandboxRules | null): Promise<void> {
  if (!rules) {
    await tx.query(`DELETE FROM sandbox.booking_rules WHERE device_id = $1`, [deviceId]);
    return;
  }
  await tx.query(
    `INSERT INTO sandbox.booking_rules (device_id, time_zone, groups) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (device_id) DO UPDATE SET time_zone = EXCLUDED.time_zone, groups = EXCLUDED.groups`,
    [deviceId, rules.timeZone, JSON.stringify(rules.groups)],
  );
}

type Refused = { code: ErrorCode; description: string } | null;

/** The rule a new booking of `owner` would break in its room's group; null when none (or no group). */
export async function groupRefusal(
  tx: SqlRunner,
  rules: SandboxRules,
  owner: { ownerId: string; userId: string },
  p: { resourceId: string; start: Date; end: Date; now: Date },
): Promise<Refused> {
  const group = rules.groups.find((g) => g.resourceIds.includes(p.resourceId));
  if (!group) return null;
  const zone = rules.timeZone;
  if (group.daysAhead !== null) {
    const { rows } = await tx.query<{ ahead: number }>(`SELECT (($1::timestamptz AT TIME ZONE $3)::date - ($2::timestamptz AT TIME ZONE $3)::date) AS ahead`, [p.start, p.now, zone]);
    if ((rows[0]?.ahead ?? 0) > group.daysAhead) return { code: 'OutsideBookingWindow', description: `This room can be booked at most ${group.daysAhead} calendar days ahead.` };
  }
  // The owner's bookings in the group's rooms that still hold: not released by the activation rule.
  const held = `
    SELECT start_time, end_time FROM sandbox.reservations
     WHERE resource_id = ANY($1::uuid[]) AND owner_type <> 'Service'
       AND (owner_id = $2 OR user_id = $3 OR user_id IN (SELECT id FROM sandbox.users WHERE user_group_id = $2))
       AND NOT (status = 'Unused' AND $5::int IS NOT NULL AND $4 >= start_time + make_interval(mins => $5::int) AND $4 < end_time)`;
  const args = [group.resourceIds, owner.ownerId, owner.userId, p.now, group.activationMinutes];
  if (group.maxFuture !== null) {
    const { rows } = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${held}) h WHERE end_time > $4`, args);
    if ((rows[0]?.n ?? 0) >= group.maxFuture) return { code: 'QuotaExceeded', description: `At most ${group.maxFuture} bookings at a time in these rooms.` };
  }
  if (group.perWindow !== null) {
    // Every window of D calendar days that holds the new booking's day: the fullest one.
    const { rows } = await tx.query<{ n: number }>(
      `WITH d AS (SELECT ($6::timestamptz AT TIME ZONE $8)::date AS day),
            h AS (SELECT (start_time AT TIME ZONE $8)::date AS day FROM (${held}) x)
       SELECT coalesce(max((SELECT count(*) FROM h WHERE h.day BETWEEN w.first AND w.first + ($7::int - 1))), 0)::int AS n
         FROM d, LATERAL (SELECT d.day - k AS first FROM generate_series(0, $7::int - 1) k) w`,
      [...args, p.start, group.perWindow.days, zone],
    );
    if ((rows[0]?.n ?? 0) >= group.perWindow.count) {
      return { code: 'QuotaExceeded', description: `At most ${group.perWindow.count} bookings in ${group.perWindow.days} days in these rooms.` };
    }
  }
  if (group.maxConsecutive !== null) {
    const { rows } = await tx.query<{ start_time: Date; end_time: Date }>(`${held} ORDER BY start_time`, args);
    // Grow the run from the new slot outwards while a held booking touches or overlaps it.
    let from = p.start.getTime();
    let to = p.end.getTime();
    const left = rows.map((r) => ({ s: new Date(r.start_time).getTime(), e: new Date(r.end_time).getTime() }));
    let length = 1;
    for (let grew = true; grew; ) {
      grew = false;
      for (let i = left.length - 1; i >= 0; i -= 1) {
        const b = left[i]!;
        if (b.s <= to && b.e >= from) {
          from = Math.min(from, b.s);
          to = Math.max(to, b.e);
          left.splice(i, 1);
          length += 1;
          grew = true;
        }
      }
    }
    if (length > group.maxConsecutive) return { code: 'QuotaExceeded', description: `At most ${group.maxConsecutive} slots in a row in these rooms.` };
  }
  return null;
}

/** Releases unused bookings whose activation window has passed (the panel frees them); returns how many. */
export async function releaseNoShows(tx: SqlRunner, now: Date): Promise<number> {
  const { rows } = await tx.query<{ id: string }>(
    `DELETE FROM sandbox.reservations r USING sandbox.booking_rules b, jsonb_array_elements(b.groups) g
      WHERE r.device_id = b.device_id AND r.status = 'Unused' AND r.owner_type <> 'Service'
        AND g->'resourceIds' ? r.resource_id::text AND jsonb_typeof(g->'activationMinutes') = 'number'
        AND $1 >= r.start_time + make_interval(mins => (g->>'activationMinutes')::int) AND $1 < r.end_time
      RETURNING r.id`,
    [now],
  );
  return rows.length;
}
