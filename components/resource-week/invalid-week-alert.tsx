import { getTranslations } from 'next-intl/server';
import type { WeekKeyProblem } from '@/lib/schedule/week';

type SystemsT = Awaited<ReturnType<typeof getTranslations<'systems'>>>;

/** Why the address's week was refused, in the reader's language. */
function weekProblemText(problem: WeekKeyProblem, t: SystemsT): string {
  switch (problem.kind) {
    case 'shape':
      return t('invalidWeekReason.shape', { input: problem.input });
    case 'year':
      return t('invalidWeekReason.year', { min: String(problem.min), max: String(problem.max) });
    case 'week':
      return t('invalidWeekReason.week', { year: String(problem.year), weeks: String(problem.weeks), week: problem.week });
  }
}

/**
 * A mistyped `?week=` shows the current week, and says so (never silently): the room page and its
 * week sheet alike. A server component.
 */
export async function InvalidWeekAlert({ problem, className = '' }: { problem: WeekKeyProblem; className?: string }) {
  const t = await getTranslations('systems');
  return (
    <p role="alert" className={`rounded-lg border border-amber-400 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50 ${className}`}>
      {t.rich('invalidWeek', {
        reason: weekProblemText(problem, t),
        strong: (chunks) => <strong className="font-semibold">{chunks}</strong>,
      })}
    </p>
  );
}
