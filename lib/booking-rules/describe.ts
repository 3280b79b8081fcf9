import type { createTranslator, Messages } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { roomList } from './room-list';
import { quotaOnly, type RuleGroup, type RuleSet, type SystemDefaults } from './rule-set';

export { roomList };

/** The `ruleSet` translator: getTranslations('ruleSet') on a page, useTranslations in a component, createTranslator in tests. */
export type RuleSetTranslator = ReturnType<typeof createTranslator<Messages, 'ruleSet'>>;

/** A group's rules in the order residents read them: "at most 4 times in 7 days, 2 at a time, up to 30 days ahead". */
export function describeRules(group: RuleGroup, t: RuleSetTranslator): string {
  const parts: string[] = [];
  if (group.perWindow) parts.push(t('perWindow', { count: group.perWindow.count, days: group.perWindow.days }));
  if (group.maxFuture !== null) parts.push(t('maxFuture', { count: group.maxFuture }));
  if (group.daysAhead !== null) parts.push(t('daysAhead', { days: group.daysAhead }));
  if (group.maxConsecutive !== null) parts.push(t('maxConsecutive', { count: group.maxConsecutive }));
  if (group.activationMinutes !== null) parts.push(t('activation', { minutes: group.activationMinutes }));
  return parts.length ? parts.join(', ') : t('noLimits');
}

/** "Tvättstuga 1, 4 and 5 together: at most 4 times in 7 days, 2 at a time, up to 30 days ahead". */
export function describeGroup(group: RuleGroup, roomName: (resourceId: string) => string | undefined, t: RuleSetTranslator, locale: Locale): string {
  const rooms = roomList(
    group.resourceIds.map((id) => roomName(id) ?? t('unnamedRoom')),
    locale,
  );
  return t(group.resourceIds.length > 1 ? 'groupTogether' : 'group', { rooms, rules: describeRules(group, t) });
}

/** Every group of the system as a sentence, the stated groups first, then each other room with the system's quota. */
export function describeRuleSet(
  rules: RuleSet | null,
  rooms: readonly { id: string; name: string }[],
  defaults: SystemDefaults,
  t: RuleSetTranslator,
  locale: Locale,
): string[] {
  const name = (id: string) => rooms.find((r) => r.id === id)?.name;
  const grouped = new Set(rules?.groups.flatMap((g) => g.resourceIds));
  const alone = rooms.filter((r) => !grouped.has(r.id));
  const sentences = (rules?.groups ?? []).map((g) => describeGroup(g, name, t, locale));
  if (alone.length) {
    const group = quotaOnly(alone.map((r) => r.id), defaults);
    // Each of these rooms has its own quota: said once for all of them, without "together".
    sentences.push(t(alone.length > 1 ? 'groupEach' : 'group', { rooms: roomList(alone.map((r) => r.name), locale), rules: describeRules(group, t) }));
  }
  return sentences;
}
