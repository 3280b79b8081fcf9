'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass, labelClass } from '@/components/ui/styles';

export interface WeekNavProps {
  /** "Week 48, 23–29 November 2026" / "v. 48, 23–29 november 2026". */
  label: string;
  previousHref: string;
  nextHref: string;
  /** Link back to the current week; omitted (or null) when already showing it. */
  thisWeekHref?: string | null;
  /** The first day of the week shown (YYYY-MM-DD), the date picker's starting value. */
  firstDate?: string;
  /** Goes to the week with this ISO week key (e.g. 2026-W50); the date picker calls it. */
  onGoToWeek?: (weekKey: string) => void;
  /** The week's printable sheet (components/week-sheet), linked beside the week links when given. */
  sheetHref?: string | null;
}

const DAY_MS = 86_400_000;

const LINK =
  'inline-flex min-h-11 items-center rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-900 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800 dark:focus-visible:outline-blue-300';

/**
 * The ISO week key ("2026-W50") of a calendar date ("2026-12-09"), or null when it is not one. A
 * calendar date lies in the same ISO week in every time zone, so no zone is needed.
 */
export function weekKeyOfDate(date: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  // The ISO week is the one holding this date's Thursday; its year is that Thursday's year.
  const thursday = new Date(at.getTime() + (3 - ((at.getUTCDay() + 6) % 7)) * DAY_MS);
  const weekYear = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(weekYear, 0, 1)) / DAY_MS / 7);
  return `${String(weekYear).padStart(4, '0')}-W${String(week).padStart(2, '0')}`;
}

/** Previous / this / next week links and a "Go to date" picker; the week lives in the URL (e.g. `?week=2026-W48`). */
export function WeekNav({ label, previousHref, nextHref, thisWeekHref, firstDate, onGoToWeek, sheetHref }: WeekNavProps) {
  const t = useTranslations('grid');
  const sheetT = useTranslations('sheet');
  const inputId = useId();
  const errorId = useId();
  const [date, setDate] = useState(firstDate ?? '');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const key = weekKeyOfDate(date);
    if (!key) {
      setError(t('wholeDate'));
      return;
    }
    setError(null);
    onGoToWeek?.(key);
  };
  return (
    <div className="flex flex-col gap-2">
      <nav aria-label={t('weekNav')} className="flex flex-wrap items-center gap-2">
        <Link href={previousHref} className={LINK} rel="prev">
          <span aria-hidden="true">←&nbsp;</span>
          {t('previousWeek')}
        </Link>
        {thisWeekHref ? (
          <Link href={thisWeekHref} className={LINK}>
            {t('thisWeek')}
          </Link>
        ) : null}
        <Link href={nextHref} className={LINK} rel="next">
          {t('nextWeek')}
          <span aria-hidden="true">&nbsp;→</span>
        </Link>
        {sheetHref ? (
          <Link href={sheetHref} className={LINK} aria-label={sheetT('linkLabel', { week: label })}>
            {sheetT('link')}
          </Link>
        ) : null}
        <p className="ml-auto text-sm font-medium text-slate-800 dark:text-slate-200" aria-live="polite">
          {label}
        </p>
      </nav>
      {onGoToWeek ? (
        <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={inputId} className={labelClass}>
              {t('goToDate')}
            </label>
            <input
              id={inputId}
              type="date"
              value={date}
              onChange={(e) => setDate(e.target.value)}
              aria-describedby={error ? errorId : undefined}
              aria-invalid={error ? true : undefined}
              className={`${inputClass} min-h-11 w-auto`}
            />
          </div>
          <Button type="submit" variant="secondary" className="min-h-11">
            {t('showWeek')}
          </Button>
          {error ? (
            <p id={errorId} role="alert" className="w-full text-sm font-medium text-red-700 dark:text-red-300">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
