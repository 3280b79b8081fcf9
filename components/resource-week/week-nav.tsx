import Link from 'next/link';

export interface WeekNavProps {
  /** "Week 48, 23–29 November 2026" or similar. */
  label: string;
  previousHref: string;
  nextHref: string;
  /** Link back to the current week; omitted (or null) when already showing it. */
  thisWeekHref?: string | null;
}

const LINK =
  'inline-flex min-h-11 items-center rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-900 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800 dark:focus-visible:outline-blue-300';

/** Previous / this / next week links; the week lives in the URL (e.g. `?week=2026-W48`). */
export function WeekNav({ label, previousHref, nextHref, thisWeekHref }: WeekNavProps) {
  return (
    <nav aria-label="Week" className="flex flex-wrap items-center gap-2">
      <Link href={previousHref} className={LINK} rel="prev">
        <span aria-hidden="true">←&nbsp;</span>Previous week
      </Link>
      {thisWeekHref ? (
        <Link href={thisWeekHref} className={LINK}>
          This week
        </Link>
      ) : null}
      <Link href={nextHref} className={LINK} rel="next">
        Next week<span aria-hidden="true">&nbsp;→</span>
      </Link>
      <p className="ml-auto text-sm font-medium text-slate-800 dark:text-slate-200" aria-live="polite">
        {label}
      </p>
    </nav>
  );
}
