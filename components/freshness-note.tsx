'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { formatAgo, formatClock, formatNumber } from '@/lib/i18n/format';
import type { Freshness, PartialFreshness, SkippedItemsView } from '@/lib/views/types';
import { ProgressBar } from './ui/progress-bar';
import { mutedTextClass } from './ui/styles';

type FreshnessT = ReturnType<typeof useTranslations<'freshness'>>;

/** A clock that ticks every second, for "Updated 12 s ago". */
function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}


// A failure's headline (`headline.<kind>`: "Service unreachable." only when the service did not
// answer; the reliability suite and e2e look for exactly that text) and its sentence
// (`failure.<kind>`, in the reader's language rather than the view's `lastError`, the API's English).
function retryText(freshness: Freshness, timeZone: string, t: FreshnessT): string {
  if (freshness.refreshing) return ` ${t('retryingNow')}`;
  return ` ${freshness.retryAt ? t('retryAt', { time: formatClock(Date.parse(freshness.retryAt), timeZone) }) : t('keepsTrying')}`;
}

/**
 * The mirror refreshes in the background whenever data older than 30 s is viewed, so a refresh is
 * running most of the time and takes a second or two. "refreshing…" only matters once the data is
 * stale: older than this while a refresh is still running.
 */
export const STALE_AFTER_MS = 90_000;

/** Whether to say "refreshing…": a refresh is running and the shown data is stale. */
export function showRefreshing(freshness: Freshness, nowMs: number): boolean {
  if (!freshness.refreshing || freshness.status !== 'ready') return false;
  return nowMs - Date.parse(freshness.refreshedAt) >= STALE_AFTER_MS;
}

/**
 * When the next refresh of a copy held back by the system's request budget may start (epoch ms),
 * else null: a large system is re-read only every so often, and bookings made outside the portal
 * (door panels, residents' apps) show up only then; the portal's own arrive at once by webhook.
 */
export function budgetDeferredUntil(freshness: Freshness): number | null {
  if (freshness.status !== 'ready' || freshness.deferredBy !== 'budget' || !freshness.nextRefreshAt) return null;
  return Date.parse(freshness.nextRefreshAt);
}

/** The bound of an outside change (Freshness.outsideWithinS) as the page says it: whole minutes, rounded up, at least 1. */
export function outsideMinutes(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

const warningBox =
  'rounded-lg border border-amber-400 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50';

/**
 * A running refresh waiting for the service to read a failed page again: the read goes on from
 * where it stopped, so this is a pause, not a failure.
 */
function WaitingNote({ freshness, timeZone }: { freshness: Freshness; timeZone: string }) {
  const t = useTranslations('freshness');
  if (!freshness.waiting) return null;
  return (
    <p role="status" className={`flex items-start gap-2 ${warningBox}`}>
      <span aria-hidden="true">⏳</span>
      <span>
        <strong className="font-semibold">{t(`headline.${freshness.waiting.kind}`)}</strong> {t(`failure.${freshness.waiting.kind}`)}{' '}
        <span suppressHydrationWarning>{t('waiting', { time: formatClock(Date.parse(freshness.waiting.retryAt), timeZone) })}</span>
      </span>
    </p>
  );
}

/**
 * How current the shown data is: "Updated 12 s ago" (ticking), the loading progress of a system
 * never loaded, and a visible notice saying truly why the last refresh failed and when the
 * portal tries again. `slotsShown`: the page shows a first load's slots as they are read (the week
 * grid), so the note explains the slots being checked.
 */
export function FreshnessNote({ freshness, timeZone, slotsShown = false }: { freshness: Freshness; timeZone: string; slotsShown?: boolean }) {
  const t = useTranslations('freshness');
  const locale = useLocale();
  const now = useNow();
  const kind = freshness.lastError ? (freshness.lastErrorKind ?? 'internal') : null;
  if (freshness.status === 'loading') {
    // A first load that failed and waits for its retry is not "loading": say what happened.
    const waiting = kind !== null && !freshness.refreshing;
    return (
      <div className="flex flex-col gap-2">
        {waiting ? null : freshness.partial ? (
          <PartialLoad partial={freshness.partial} slotsShown={slotsShown} />
        ) : (
          <div role="status" className="flex items-center gap-3 rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100">
            <span aria-hidden="true" className="size-4 shrink-0 animate-spin rounded-full border-2 border-brand-600 border-t-transparent dark:border-blue-300 dark:border-t-transparent" />
            <span>{t('loading', { pages: freshness.pagesFetched })}</span>
          </div>
        )}
        {waiting ? null : <WaitingNote freshness={freshness} timeZone={timeZone} />}
        {kind ? (
          <p role="alert" className={warningBox}>
            <strong className="font-semibold">{t(`headline.${kind}`)}</strong> {t('notLoadedYet')} {t(`failure.${kind}`)}
            <span suppressHydrationWarning>{retryText(freshness, timeZone, t)}</span>
          </p>
        ) : null}
      </div>
    );
  }
  const refreshedMs = Date.parse(freshness.refreshedAt);
  const budgetNext = budgetDeferredUntil(freshness);
  return (
    <div className="flex flex-col gap-2">
      <p className={mutedTextClass}>
        <span suppressHydrationWarning>{t('updated', { ago: formatAgo(now - refreshedMs, locale) })}</span>
        {showRefreshing(freshness, now) ? <span suppressHydrationWarning>{` · ${t('refreshing')}`}</span> : null}
      </p>
      <WaitingNote freshness={freshness} timeZone={timeZone} />
      {kind === null && (budgetNext !== null || freshness.outsideWithinS !== undefined) ? (
        <p className={mutedTextClass}>
          {budgetNext !== null ? t('budgetDeferred', { asOf: formatClock(refreshedMs, timeZone), next: formatClock(budgetNext, timeZone) }) : null}
          {budgetNext !== null && freshness.outsideWithinS !== undefined ? ' ' : null}
          {freshness.outsideWithinS !== undefined ? t('outsideWithin', { minutes: outsideMinutes(freshness.outsideWithinS) }) : null}
        </p>
      ) : null}
      {freshness.incomplete && freshness.incomplete.length > 0 ? (
        <p role="status" className={`flex items-start gap-2 ${warningBox}`}>
          <span aria-hidden="true">⚠</span>
          <span>
            <strong className="font-semibold">{t('incompleteHeadline')}</strong>{' '}
            {t('incomplete', { lists: freshness.incomplete.map((c) => t(`collectionName.${c}`)).join(', ') })}{' '}
            <span suppressHydrationWarning>{freshness.nextRefreshAt ? t('retryAt', { time: formatClock(Date.parse(freshness.nextRefreshAt), timeZone) }) : t('keepsTrying')}</span>
          </span>
        </p>
      ) : null}
      {kind ? (
        <p role="status" className={`flex items-start gap-2 ${warningBox}`}>
          <span aria-hidden="true">⚠</span>
          <span>
            <strong className="font-semibold">{t(`headline.${kind}`)}</strong> {t(`failure.${kind}`)}{' '}
            {t('showingFrom', { time: formatClock(refreshedMs, timeZone) })}
            <span suppressHydrationWarning>{retryText(freshness, timeZone, t)}</span>
          </span>
        </p>
      ) : null}
    </div>
  );
}

/**
 * A first load whose rooms are in: how many reservations are read, as a progress bar — with "of
 * about N" and a value only when an honest estimate exists (the last complete load's count), else
 * indeterminate (the service sends items in no order, so a load cannot estimate its own total).
 */
function PartialLoad({ partial, slotsShown }: { partial: PartialFreshness; slotsShown: boolean }) {
  const t = useTranslations('freshness');
  const locale = useLocale();
  const read = formatNumber(partial.reservationsRead, locale);
  const expected = partial.reservationsExpected;
  const text = expected !== null ? t('partialReadOf', { read, expected: formatNumber(expected, locale) }) : t('partialRead', { read });
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100">
      <p className="font-medium tabular-nums">{text}</p>
      <ProgressBar label={t('partialLabel')} value={expected !== null ? partial.reservationsRead : null} max={expected} valueText={text} />
      {slotsShown ? <p className="text-slate-700 dark:text-slate-300">{t('partialHint')}</p> : null}
    </div>
  );
}

const COLLECTIONS = ['reservations', 'resources', 'timeSchedules', 'userGroups'] as const;
type Collection = (typeof COLLECTIONS)[number];
const isCollection = (name: string): name is Collection => (COLLECTIONS as readonly string[]).includes(name);

/** For admins: items the service sent that the portal could not read (left out of every view). */
export function SkippedItemsNote({ skipped }: { skipped: SkippedItemsView }) {
  const t = useTranslations('freshness');
  const locale = useLocale();
  const name = (collection: string) => (isCollection(collection) ? t(`collectionName.${collection}`) : collection);
  const counts = Object.entries(skipped.counts)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([collection, n]) => `${formatNumber(n ?? 0, locale)} ${name(collection)}`)
    .join(', ');
  return (
    <div role="status" className={warningBox}>
      <p>{t.rich('skipped', { count: skipped.total, counts, strong: (chunks) => <strong className="font-semibold">{chunks}</strong> })}</p>
      <details className="mt-1">
        <summary className="cursor-pointer">
          {skipped.samples.length < skipped.total ? t('reasonsFirst', { count: skipped.samples.length }) : t('reasons')}
        </summary>
        <ul className="mt-1 list-disc pl-5">
          {skipped.samples.map((s, i) => (
            <li key={i}>
              {name(s.collection)} {s.id ? <code>{s.id}</code> : t('noId')}: {s.reason}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
