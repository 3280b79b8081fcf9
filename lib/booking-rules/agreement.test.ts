import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupRefusal, releaseNoShows, writeRules } from '@/sandbox/booking-rules';
import { migrateSandbox } from '@/sandbox/schema';
import { rng } from '@/sandbox/seed';
import { openTestSql, sandboxDbTargets, type TestSql } from '@/sandbox/testing';
import { groupBreach, type HeldBooking } from './group-rules';
import type { RuleGroup } from './rule-set';

/**
 * Issue 35: the portal's pre-check (group-rules.ts, Intl time zones, in memory) and the sandbox's
 * verdict (sandbox/booking-rules.ts, PostgreSQL time zones, SQL) must agree on every
 * rule set and booking history — generated here, thousands of cases, around both DST changes.
 */

const HOUR = 3_600_000;
const ZONE = 'Europe/Stockholm';
const rooms = [randomUUID(), randomUUID(), randomUUID()];
const device = randomUUID();
const owner = { ownerId: randomUUID(), userId: randomUUID() };
const stranger = randomUUID();
// Around the change to summer time, to winter time, and an ordinary week (UTC instants).
const anchors = [Date.parse('2026-03-27T09:00:00Z'), Date.parse('2026-10-23T09:00:00Z'), Date.parse('2026-11-24T09:00:00Z')];

interface Case {
  group: RuleGroup;
  nowMs: number;
  held: (HeldBooking & { owner: string })[];
  candidate: { resourceId: string; startMs: number; endMs: number };
}

function generate(next: () => number): Case {
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const maybe = <T,>(value: () => T): T | null => (next() < 0.5 ? value() : null);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const members = rooms.filter(() => next() < 0.7);
  const resourceIds = members.length ? members : [rooms[0]!];
  const group: RuleGroup = {
    resourceIds,
    maxFuture: maybe(() => int(1, 3)),
    perWindow: maybe(() => ({ count: int(1, 4), days: int(1, 10) })),
    daysAhead: maybe(() => int(0, 10)),
    maxConsecutive: maybe(() => int(1, 3)),
    activationMinutes: maybe(() => pick([15, 30, 120])),
  };
  // Now: on an anchor's day, at any minute; slots on whole hours, 1–3 hours long.
  const nowMs = pick(anchors) + int(-30, 30) * HOUR + int(0, 59) * 60_000;
  const slotAt = (hoursFromNow: number, length: number) => {
    const startMs = Math.floor(nowMs / HOUR + hoursFromNow) * HOUR;
    return { startMs, endMs: startMs + length * HOUR };
  };
  const held = Array.from({ length: int(0, 7) }, () => {
    const slot = slotAt(int(-12 * 24, 12 * 24), pick([1, 1, 2, 3]));
    return { ...slot, resourceId: pick(rooms), status: next() < 0.5 ? 'Used' : 'Unused', owner: next() < 0.85 ? owner.ownerId : stranger };
  });
  // Back-to-back with a held one now and then, so that runs and windows are often at their limits.
  const base = held.length && next() < 0.4 ? held[Math.floor(next() * held.length)]! : null;
  const length = pick([1, 1, 2]);
  const startMs = base && base.endMs > nowMs ? base.endMs : slotAt(int(1, 12 * 24), length).startMs;
  return { group, nowMs, held, candidate: { resourceId: pick(resourceIds), startMs, endMs: startMs + length * HOUR } };
}

const portalVerdict = (c: Case) => {
  const breach = groupBreach(c.group, c.held.filter((h) => h.owner === owner.ownerId), c.candidate, c.nowMs, ZONE);
  return breach === null ? null : breach.rule === 'days-ahead' ? 'OutsideBookingWindow' : 'QuotaExceeded';
};

for (const target of sandboxDbTargets()) {
  describe(`the portal's rule check agrees with the sandbox's [${target}]`, () => {
    let db: TestSql;
    beforeAll(async () => {
      db = await openTestSql(target);
      await migrateSandbox(db.sql);
    });
    afterAll(() => db.close());

    async function sandboxVerdict(c: Case) {
      return db.sql.transaction(async (tx) => {
        await tx.query(`DELETE FROM sandbox.reservations`);
        for (const h of c.held) {
          await tx.query(
            `INSERT INTO sandbox.reservations (id, device_id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time)
             VALUES ($1, $2, $3, $4, $5, 'Group', $6, $7, $8)`,
            [randomUUID(), device, h.resourceId, h.owner === owner.ownerId ? owner.userId : randomUUID(), h.owner, h.status, new Date(h.startMs), new Date(h.endMs)],
          );
        }
        const refused = await groupRefusal(tx, { timeZone: ZONE, groups: [c.group] }, owner, {
          resourceId: c.candidate.resourceId,
          start: new Date(c.candidate.startMs),
          end: new Date(c.candidate.endMs),
          now: new Date(c.nowMs),
        });
        return refused?.code ?? null;
      });
    }

    it('on 2,000 generated rule sets and histories', { timeout: 300_000 }, async () => {
      // The sandbox's own mulberry32: the same cases on every run.
      const next = rng(35);
      const tally = { OutsideBookingWindow: 0, QuotaExceeded: 0, allowed: 0 };
      const cases = target === 'pglite' ? 2_000 : 1_000;
      for (let i = 0; i < cases; i += 1) {
        const c = generate(next);
        const portal = portalVerdict(c);
        const sandbox = await sandboxVerdict(c);
        if (portal !== sandbox) expect({ case: i, ...c, portal }).toEqual({ case: i, ...c, portal: sandbox });
        tally[portal ?? 'allowed'] += 1;
      }
      // The generator reaches every verdict often, or agreement would prove little.
      expect(tally.allowed).toBeGreaterThan(cases / 10);
      expect(tally.QuotaExceeded).toBeGreaterThan(cases / 10);
      expect(tally.OutsideBookingWindow).toBeGreaterThan(cases / 50);
    });

    it('releases an unused booking once its activation window has passed, and only then', async () => {
      await db.sql.query(`DELETE FROM sandbox.reservations`);
      await writeRules(db.sql, device, { timeZone: ZONE, groups: [{ resourceIds: [rooms[0]!], maxFuture: 1, perWindow: null, daysAhead: null, maxConsecutive: null, activationMinutes: 30 }] });
      const start = Date.parse('2026-11-24T07:00:00Z');
      for (const [status, resourceId] of [['Unused', rooms[0]], ['Used', rooms[0]], ['Unused', rooms[1]]] as const) {
        await db.sql.query(
          `INSERT INTO sandbox.reservations (id, device_id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time)
           VALUES ($1, $2, $3, $4, $5, 'Group', $6, $7, $8)`,
          [randomUUID(), device, resourceId, owner.userId, owner.ownerId, status, new Date(start), new Date(start + 3 * HOUR)],
        );
      }
      expect(await releaseNoShows(db.sql, new Date(start + 29 * 60_000))).toBe(0);
      expect(await releaseNoShows(db.sql, new Date(start + 30 * 60_000))).toBe(1);
      const { rows } = await db.sql.query<{ status: string; resource_id: string }>(`SELECT status, resource_id FROM sandbox.reservations ORDER BY status`);
      expect(rows).toEqual([
        { status: 'Unused', resource_id: rooms[1] },
        { status: 'Used', resource_id: rooms[0] },
      ]);
    });
  });
}
