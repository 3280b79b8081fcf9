import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import { memoTranslator } from './memo-translator';

describe('memoTranslator', () => {
  const messages = { slot: { timeRange: '{start}–{end}', free: 'free', owner: 'apartment {apartment}' } };
  const counted = () => {
    const t = createTranslator({ locale: 'en', messages, namespace: 'slot' });
    let calls = 0;
    const spy = ((key: 'timeRange' | 'free' | 'owner', values?: Record<string, string>) => {
      calls += 1;
      return t(key, values as never);
    }) as typeof t;
    return { spy, calls: () => calls };
  };

  it('says the same as the translator, asking it once per key and values', () => {
    const { spy, calls } = counted();
    const t = memoTranslator(spy);
    expect(t('timeRange', { start: '07:00', end: '10:00' })).toBe('07:00–10:00');
    expect(t('timeRange', { start: '07:00', end: '10:00' })).toBe('07:00–10:00');
    expect(t('timeRange', { start: '10:00', end: '13:00' })).toBe('10:00–13:00');
    expect(t('free')).toBe('free');
    expect(t('free')).toBe('free');
    expect(t('owner', { apartment: '1203' })).toBe('apartment 1203');
    expect(calls()).toBe(4);
  });

  it("keeps the translator's own methods", () => {
    const t = memoTranslator(createTranslator({ locale: 'en', messages, namespace: 'slot' }));
    expect(t.has('free')).toBe(true);
    expect(t.raw('timeRange')).toBe('{start}–{end}');
  });
});
