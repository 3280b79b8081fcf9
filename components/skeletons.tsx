// Placeholders of the system, resource and residents pages. Not client components: the route segments'
// loading.tsx render them on the server, and importing them from the pages' client modules made
// each loading boundary ship its page's whole client code (React Query included) a second time.

import { Card } from './ui/card';

export function OverviewSkeleton() {
  return (
    <div aria-hidden="true" className="flex flex-col gap-6">
      <div className="grid gap-3 sm:grid-cols-2">
        {[0, 1, 2, 3].map((i) => (
          <Card key={i} className="flex h-32 flex-col gap-3">
            <div className="h-4 w-1/2 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
            <div className="h-3 w-1/3 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
            <div className="mt-auto h-2.5 w-full animate-pulse rounded-full bg-slate-200 dark:bg-slate-800" />
          </Card>
        ))}
      </div>
      <div className="h-72 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-900" />
    </div>
  );
}

export function GridSkeleton() {
  return (
    <div aria-hidden="true" className="grid grid-cols-1 gap-2 sm:grid-cols-7">
      {Array.from({ length: 7 }, (_, day) => (
        <div key={day} className="flex flex-col gap-2">
          <div className="h-5 w-16 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="h-14 animate-pulse rounded-md bg-slate-100 dark:bg-slate-900" />
          ))}
        </div>
      ))}
    </div>
  );
}

export function ResultsSkeleton() {
  return (
    <div aria-hidden="true" className="grid gap-3 lg:grid-cols-2">
      {[0, 1].map((i) => (
        <Card key={i} className="flex h-40 flex-col gap-3">
          <div className="h-4 w-1/2 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
          <div className="h-3 w-2/3 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
          <div className="h-3 w-1/3 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
        </Card>
      ))}
    </div>
  );
}
