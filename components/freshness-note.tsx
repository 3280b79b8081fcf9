'use client';

import { useEffect, useState } from 'react';
import { formatClock } from '@/lib/schedule/labels';
import type { Freshness, FreshnessErrorKind, SkippedItemsView } from '@/lib/views/types';
import { mutedTextClass } from './ui/styles';

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  return `${h} h ago`;
}

/** A clock that ticks every second, for "Updated 12 s ago". */
function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

/**
 * The headline of a failure, by what is true about it. "Service unreachable." only when the
 * service did not answer (the reliability suite and e2e look for exactly that text).
 */
export const FAILURE_HEADLINES: Record<FreshnessErrorKind, string> = {
  unreachable: 'Service unreachable.',
  unreadable: 'Unreadable answer from the service.',
  refused: 'Request refused by the service.',
  busy: 'Service busy.',
  internal: 'Update failed.',
};

function retryText(freshness: Freshness, timeZone: string): string {
  if (freshness.refreshing) return ' The portal is trying again now.';
  return freshness.retryAt ? ` The portal tries again at ${formatClock(Date.parse(freshness.retryAt), timeZone)}.` : ' The portal keeps trying.';
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

const warningBox =
  'rounded-lg border border-amber-400 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50';

/**
 * How current the shown data is: "Updated 12 s ago" (ticking), the loading progress of a system
 * never loaded, and a visible notice saying truly why the last refresh failed and when the
 * portal tries again.
 */
export function FreshnessNote({ freshness, timeZone }: { freshness: Freshness; timeZone: string }) {
  const now = useNow();
  const kind = freshness.lastError ? (freshness.lastErrorKind ?? 'internal') : null;
  if (freshness.status === 'loading') {
    // A first load that failed and waits for its retry is not "loading": say what happened.
    const waiting = kind !== null && !freshness.refreshing;
    return (
      <div className="flex flex-col gap-2">
        {waiting ? null : (
          <div role="status" className="flex items-center gap-3 rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100">
            <span aria-hidden="true" className="size-4 shrink-0 animate-spin rounded-full border-2 border-brand-600 border-t-transparent dark:border-blue-300 dark:border-t-transparent" />
            <span>
              Loading reservations… {freshness.pagesFetched} page{freshness.pagesFetched === 1 ? '' : 's'} fetched
            </span>
          </div>
        )}
        {kind ? (
          <p role="alert" className={warningBox}>
            <strong className="font-semibold">{FAILURE_HEADLINES[kind]}</strong> The reservations could not be loaded yet:{' '}
            {freshness.lastError}
            <span suppressHydrationWarning>{retryText(freshness, timeZone)}</span>
          </p>
        ) : null}
      </div>
    );
  }
  const refreshedMs = Date.parse(freshness.refreshedAt);
  return (
    <div className="flex flex-col gap-2">
      <p className={mutedTextClass}>
        <span suppressHydrationWarning>Updated {ago(now - refreshedMs)}</span>
        {showRefreshing(freshness, now) ? <span suppressHydrationWarning> · refreshing…</span> : null}
      </p>
      {kind ? (
        <p role="status" className={`flex items-start gap-2 ${warningBox}`}>
          <span aria-hidden="true">⚠</span>
          <span>
            <strong className="font-semibold">{FAILURE_HEADLINES[kind]}</strong> {freshness.lastError} Showing data from{' '}
            {formatClock(refreshedMs, timeZone)}.<span suppressHydrationWarning>{retryText(freshness, timeZone)}</span>
          </span>
        </p>
      ) : null}
    </div>
  );
}

const COLLECTION_NAMES: Record<string, string> = {
  reservations: 'reservations',
  resources: 'resources',
  timeSchedules: 'time schedules',
  userGroups: 'user groups',
};

/** For admins: items the service sent that the portal could not read (left out of every view). */
export function SkippedItemsNote({ skipped }: { skipped: SkippedItemsView }) {
  const counts = Object.entries(skipped.counts)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([collection, n]) => `${n} ${COLLECTION_NAMES[collection] ?? collection}`)
    .join(', ');
  return (
    <div role="status" className={warningBox}>
      <p>
        <strong className="font-semibold">
          {skipped.total} item{skipped.total === 1 ? '' : 's'} from the service could not be read
        </strong>{' '}
        and {skipped.total === 1 ? 'is' : 'are'} left out ({counts}).
      </p>
      <details className="mt-1">
        <summary className="cursor-pointer">Reasons{skipped.samples.length < skipped.total ? ` (first ${skipped.samples.length})` : ''}</summary>
        <ul className="mt-1 list-disc pl-5">
          {skipped.samples.map((s, i) => (
            <li key={i}>
              {COLLECTION_NAMES[s.collection] ?? s.collection} {s.id ? <code>{s.id}</code> : '(no id)'}: {s.reason}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
