import { z } from 'zod';

/**
 * The booking rules of a system as its installation publishes them to residents (issue 35): rule
 * groups, each one or more rooms sharing a quota. The service does not expose its rules, so an
 * admin states them; the portal's checks (group-rules.ts) and the sandbox apply the same model.
 *
 * A room in no group keeps the system's own settings: at most `bookingQuota` future bookings per
 * apartment in that room, and the system's booking horizon — today's behaviour.
 */

const count = (max: number) => z.number().int().min(1).max(max);

export const ruleGroupSchema = z
  .object({
    /** The rooms (resource ids) sharing the group's quotas. */
    resourceIds: z.array(z.string().trim().min(1).max(100)).min(1).max(100),
    /** "2 at a time": future bookings (not yet ended) of an apartment in the group's rooms. */
    maxFuture: count(50).nullable().default(null),
    /** "2 times in 7 days": bookings (past and future) whose start falls in any D consecutive calendar days. */
    perWindow: z.object({ count: count(100), days: count(90) }).nullable().default(null),
    /** "Up to 30 days ahead": the slot's local date at most this many calendar days after today (0 = today only, 1 = today or tomorrow). */
    daysAhead: z.number().int().min(0).max(365).nullable().default(null),
    /** "At most three slots in a row": back-to-back slots of an apartment in the group's rooms. */
    maxConsecutive: count(24).nullable().default(null),
    /** "Activated within 30 minutes of the start": an unused booking is released after this. */
    activationMinutes: z.number().int().min(1).max(24 * 60).nullable().default(null),
  })
  .refine((g) => new Set(g.resourceIds).size === g.resourceIds.length, { message: 'A room is listed twice in one group.', path: ['resourceIds'] });

export const ruleSetSchema = z
  .object({ groups: z.array(ruleGroupSchema).max(50) })
  .refine(
    (s) => {
      const rooms = s.groups.flatMap((g) => g.resourceIds);
      return new Set(rooms).size === rooms.length;
    },
    { message: 'A room can belong to one rule group only.', path: ['groups'] },
  );

export type RuleGroup = z.infer<typeof ruleGroupSchema>;
export type RuleSet = z.infer<typeof ruleSetSchema>;

/** What a system without stated rules has: each room alone, `quota` future bookings, no other limit. */
export interface SystemDefaults {
  bookingQuota: number;
}

/** Rooms with the system's own rule only: `bookingQuota` future bookings (per room, as the service counts them). */
export function quotaOnly(resourceIds: string[], defaults: SystemDefaults): RuleGroup {
  return { resourceIds, maxFuture: defaults.bookingQuota, perWindow: null, daysAhead: null, maxConsecutive: null, activationMinutes: null };
}

/** The group whose rules apply to a room: its stated group, else the room alone with the system's quota. */
export function groupOf(resourceId: string, rules: RuleSet | null, defaults: SystemDefaults): RuleGroup {
  return rules?.groups.find((g) => g.resourceIds.includes(resourceId)) ?? quotaOnly([resourceId], defaults);
}
