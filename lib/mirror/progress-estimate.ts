/** The observed rate of loads is taken over at most this long (the last ten minutes). */
export const LOAD_RATE_WINDOW_S = 600;
/** Fewer loads than this, or over less time, say too little to estimate from. */
const MIN_LOADS = 3;
const MIN_SPAN_S = 20;

/** What the admin sees: loaded of total, and about how long the rest takes (null: not known yet). */
export interface LoadProgress {
  total: number;
  loaded: number;
  remaining: number;
  /** Seconds left at the observed rate; 0 when done; null while too few loads were seen to say. */
  etaSeconds: number | null;
  /** Systems loaded per minute lately (null as etaSeconds). */
  perMinute: number | null;
}

/**
 * The progress from the counts (pure): `recent` systems whose copy was read within the window,
 * the earliest of them starting at `recentSince`, give the rate; the rest at that rate, the time left.
 */
export function estimateLoadProgress(counts: { total: number; loaded: number; recent: number; recentSince: Date | null }, now: Date): LoadProgress {
  const total = Math.max(0, counts.total);
  const loaded = Math.min(total, Math.max(0, counts.loaded));
  const remaining = total - loaded;
  if (remaining === 0) return { total, loaded, remaining, etaSeconds: 0, perMinute: null };
  const spanS = counts.recentSince ? (now.getTime() - counts.recentSince.getTime()) / 1000 : 0;
  if (counts.recent < MIN_LOADS || spanS < MIN_SPAN_S) return { total, loaded, remaining, etaSeconds: null, perMinute: null };
  const perSecond = counts.recent / Math.min(spanS, LOAD_RATE_WINDOW_S);
  return { total, loaded, remaining, etaSeconds: Math.ceil(remaining / perSecond), perMinute: Math.round(perSecond * 600) / 10 };
}
