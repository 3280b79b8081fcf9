import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/config';
import { catalogues } from '@/tests/intl';
import { describeGroup, describeRuleSet, roomList } from './describe';
import { ruleSetSchema } from './rule-set';

const tr = (locale: Locale) => createTranslator({ locale, messages: catalogues[locale], namespace: 'ruleSet' });
const rooms = [
  { id: 't1', name: 'Tvättstuga 1' },
  { id: 't2', name: 'Tvättstuga 2' },
  { id: 't4', name: 'Tvättstuga 4' },
  { id: 't5', name: 'Tvättstuga 5' },
  { id: 'q', name: 'Snabbtvätten' },
  { id: 'd', name: 'Torkrum' },
];
const name = (id: string) => rooms.find((r) => r.id === id)?.name;
// The three installations of issue 35, as an admin enters them.
const published = ruleSetSchema.parse({
  groups: [
    { resourceIds: ['t1', 't4', 't5'], perWindow: { count: 4, days: 7 }, maxFuture: 2, daysAhead: 30 },
    { resourceIds: ['q'], daysAhead: 1, maxConsecutive: 3 },
    { resourceIds: ['t2'], perWindow: { count: 2, days: 7 }, maxFuture: 1, daysAhead: 30, activationMinutes: 30 },
  ],
});

describe('the rules as residents read them', () => {
  it('says each published installation in English', () => {
    const t = tr('en');
    expect(describeGroup(published.groups[0]!, name, t, 'en')).toBe('Tvättstuga 1, 4, and 5 together: at most 4 times in 7 days, 2 at a time, up to 30 days ahead');
    expect(describeGroup(published.groups[1]!, name, t, 'en')).toBe('Snabbtvätten: only today or tomorrow, at most 3 slots in a row');
    expect(describeGroup(published.groups[2]!, name, t, 'en')).toBe(
      'Tvättstuga 2: at most 2 times in 7 days, 1 at a time, up to 30 days ahead, a booking not started within 30 minutes of its start is released',
    );
  });

  it('says them in Swedish', () => {
    const t = tr('sv');
    expect(describeGroup(published.groups[0]!, name, t, 'sv')).toBe('Tvättstuga 1, 4 och 5 tillsammans: högst 4 gånger på 7 dagar, 2 åt gången, upp till 30 dagar i förväg');
    expect(describeGroup(published.groups[1]!, name, t, 'sv')).toBe('Snabbtvätten: bara i dag eller i morgon, högst 3 pass i rad');
  });

  it('says the rooms without stated rules once, each with the system’s quota, and a missing room as such', () => {
    expect(describeRuleSet(published, rooms, { bookingQuota: 2 }, tr('en'), 'en').at(-1)).toBe('Torkrum: 2 at a time');
    expect(describeRuleSet(null, rooms.slice(0, 2), { bookingQuota: 2 }, tr('sv'), 'sv')).toEqual(['Tvättstuga 1 och 2, var för sig: 2 åt gången']);
    expect(describeGroup({ ...published.groups[1]!, resourceIds: ['gone'] }, name, tr('en'), 'en')).toMatch(/^a room no longer listed: /);
  });

  it('lists rooms by their shared name only when only the last word differs', () => {
    expect(roomList(['Tvättstuga 1', 'Tvättstuga 4'], 'en')).toBe('Tvättstuga 1 and 4');
    expect(roomList(['Tvättstuga', 'Torkrum', 'Mangel'], 'sv')).toBe('Tvättstuga, Torkrum och Mangel');
    expect(roomList(['Tvättstuga A'], 'en')).toBe('Tvättstuga A');
  });
});
