export interface ProgressBarProps {
  /** The bar's accessible name, e.g. "Reading reservations". */
  label: string;
  /** Done so far and the total; both null (or no total) makes the bar indeterminate. */
  value: number | null;
  max: number | null;
  /** What a screen reader says as its value when known ("… 12,400 read of about 50,000"); show it beside the bar too. */
  valueText?: string;
  className?: string;
}

/**
 * A progress bar (role="progressbar"). With a known total it carries aria-valuenow/-max and a fill
 * of that share; without one it is indeterminate: no value attributes (ARIA's way to say "unknown")
 * and a pulsing fill, still when the reader asked for reduced motion.
 */
export function ProgressBar({ label, value, max, valueText, className }: ProgressBarProps) {
  const known = value !== null && max !== null && max > 0;
  const share = known ? Math.min(1, Math.max(0, value / max)) : null;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={known ? 0 : undefined}
      aria-valuemax={known ? max : undefined}
      aria-valuenow={known ? Math.min(value, max) : undefined}
      aria-valuetext={known ? valueText : undefined}
      className={`h-2.5 w-full overflow-hidden rounded-full bg-slate-200 ring-1 ring-slate-400/50 ring-inset dark:bg-slate-800 ${className ?? ''}`.trim()}
    >
      {share !== null ? (
        <div className="h-full rounded-full bg-brand-600 dark:bg-blue-400" style={{ width: `${Math.round(share * 100)}%` }} />
      ) : (
        <div className="h-full w-full animate-pulse rounded-full bg-brand-600/60 motion-reduce:animate-none dark:bg-blue-400/60" />
      )}
    </div>
  );
}
