import { describe, expect, it } from 'vitest';
import { handleApiError } from '@/lib/errors/api-error';
import { parseWeekParam } from './params';

describe('parseWeekParam', () => {
  it('takes a real ISO week, and no week as the current one', () => {
    expect(parseWeekParam('2026-W53')).toBe('2026-W53');
    expect(parseWeekParam(null)).toBeUndefined();
    expect(parseWeekParam('')).toBeUndefined();
  });

  it('answers a week that does not exist with a 400 saying why', async () => {
    for (const [week, why] of [
      ['2026-W99', 'Week 2026 has weeks 01 to 53.'],
      ['2025-W53', 'Week 2025 has weeks 01 to 52.'],
      ['next week', 'The week must be written like 2026-W48.'],
    ] as const) {
      let thrown: unknown;
      try {
        parseWeekParam(week);
      } catch (error) {
        thrown = error;
      }
      const answer = await handleApiError(thrown);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toContain(why);
    }
  });
});
