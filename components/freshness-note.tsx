'use client';

import { useEffect, useState } from 'react';
import { formatClock } from '@/lib/schedule/labels';
import type { Freshness } from '@/lib/views/types';

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
 * How current the shown data is: "Updated 12 s ago" (ticking), the loading progress of a system
 * never loaded, and a visible notice when the reservation service could not be reached.
 */
export function FreshnessNote({ freshness, timeZone }: { freshness: Freshness; timeZone: string }) {
  const now = useNow();
  if (freshness.status === 'loading') {
    return (
      <div className="flex flex-col gap-2">
        <div role="status" className="flex items-center gap-3 rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100">
          <span aria-hidden="true" className="size-4 shrink-0 animate-spin rounded-full border-2 border-brand-600 border-t-transparent dark:border-blue-300 dark:border-t-transparent" />
          <span>
            Loading reservations… {freshness.pagesFetched} page{freshness.pagesFetched === 1 ? '' : 's'} fetched
          </span>
        </div>
        {freshness.lastError ? (
          <p role="alert" className="rounded-lg border border-amber-400 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50">
            <strong className="font-semibold">Service unreachable.</strong> The reservation service is unreachable; the portal
            keeps trying.
          </p>
        ) : null}
      </div>
    );
  }
  const refreshedMs = Date.parse(freshness.refreshedAt);
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        <span suppressHydrationWarning>Updated {ago(now - refreshedMs)}</span>
        {freshness.refreshing ? <span> · refreshing…</span> : null}
      </p>
      {freshness.lastError ? (
        <p role="status" className="flex items-start gap-2 rounded-lg border border-amber-400 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50">
          <span aria-hidden="true">⚠</span>
          <span>
            <strong className="font-semibold">Service unreachable.</strong> The reservation service is unreachable; showing data
            from {formatClock(refreshedMs, timeZone)}.
          </span>
        </p>
      ) : null}
    </div>
  );
}
