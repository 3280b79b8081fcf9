import { OverviewSkeleton } from '@/components/skeletons';

export default function Loading() {
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <p className="sr-only" role="status">
        Loading the system…
      </p>
      <div className="h-4 w-40 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-8 w-72 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <OverviewSkeleton />
    </div>
  );
}
