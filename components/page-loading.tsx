import type { ReactNode } from 'react';

const bar = 'animate-pulse rounded bg-slate-200 dark:bg-slate-800';
const block = 'animate-pulse rounded bg-slate-100 dark:bg-slate-900';

/**
 * The body of a loading.tsx: the status said to screen readers, grey bars where the page's
 * breadcrumb and heading will be (Tailwind width classes), then the page's own skeleton.
 */
export function PageLoading({ status, bars, children }: { status: string; bars: readonly string[]; children?: ReactNode }) {
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <p className="sr-only" role="status">
        {status}
      </p>
      {bars.map((width, index) => (
        <div key={index} className={`${width} ${bar}`} />
      ))}
      {children}
    </div>
  );
}

/** A lighter block the size of a form or a panel, for PageLoading's children. */
export function LoadingBlock({ className }: { className: string }) {
  return <div className={`${className} ${block}`} />;
}
