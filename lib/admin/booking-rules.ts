import 'server-only';
import { ruleGroupSchema, ruleSetSchema, type RuleGroup, type RuleSet } from '@/lib/booking-rules/rule-set';
import type { Database } from '@/lib/db';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { readResources } from '@/lib/mirror/store';
import { readBookingRules, writeBookingRules } from '@/lib/systems/booking-rules';
import { getSystem } from '@/lib/systems/store';
import { recordAudit, type Actor } from './audit';

/**
 * An admin states a system's booking rules one group of rooms at a time (issue 35): adds or
 * replaces a group (`index` null adds), or removes one. The rooms must be the system's own and in
 * no other group; every change is audited with the group before and after.
 */
export async function setRuleGroup(db: Database, actor: Actor, deviceId: string, index: number | null, input: unknown): Promise<{ system: string; rules: RuleSet }> {
  const parsed = ruleGroupSchema.safeParse(input);
  if (!parsed.success) throw new ApiError('unprocessable_entity', msg('errors.ruleGroupInvalid'));
  const group: RuleGroup = { ...parsed.data, resourceIds: parsed.data.resourceIds.map((id) => id.toLowerCase()) };
  return db.transaction(async (tx) => {
    const system = await getSystem(tx, deviceId);
    if (!system) throw new ApiError('not_found', msg('errors.noSuchSystem'));
    const rooms = new Set((await readResources(tx, deviceId)).map((r) => r.id));
    if (group.resourceIds.some((id) => !rooms.has(id))) throw new ApiError('unprocessable_entity', msg('errors.noSuchRoom', { system: system.name }));
    const before = (await readBookingRules(tx, deviceId)) ?? { groups: [] };
    if (index !== null && !before.groups[index]) throw new ApiError('not_found', msg('errors.ruleGroupGone'));
    const groups = index === null ? [...before.groups, group] : before.groups.map((g, i) => (i === index ? group : g));
    const after = ruleSetSchema.safeParse({ groups });
    if (!after.success) throw new ApiError('unprocessable_entity', msg('errors.ruleGroupOverlap'));
    await writeBookingRules(tx, deviceId, after.data);
    await recordAudit(tx, actor, {
      action: 'system.booking-rules',
      targetType: 'system',
      targetId: deviceId,
      targetName: system.name,
      detail: { from: index === null ? null : before.groups[index], to: group },
    });
    return { system: system.name, rules: after.data };
  });
}

export async function removeRuleGroup(db: Database, actor: Actor, deviceId: string, index: number): Promise<{ system: string }> {
  return db.transaction(async (tx) => {
    const system = await getSystem(tx, deviceId);
    if (!system) throw new ApiError('not_found', msg('errors.noSuchSystem'));
    const before = (await readBookingRules(tx, deviceId)) ?? { groups: [] };
    const removed = before.groups[index];
    if (!removed) throw new ApiError('not_found', msg('errors.ruleGroupGone'));
    await writeBookingRules(tx, deviceId, { groups: before.groups.filter((_, i) => i !== index) });
    await recordAudit(tx, actor, { action: 'system.booking-rules', targetType: 'system', targetId: deviceId, targetName: system.name, detail: { from: removed, to: null } });
    return { system: system.name };
  });
}
