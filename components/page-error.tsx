'use client';

import { useRouter } from 'next/navigation';
import { startTransition } from 'react';
import { QueryError } from './query-error';

/** Body of an error.tsx boundary: a clear message and a Retry that renders the page again. */
export function PageError({ title, reset }: { title: string; reset: () => void }) {
  const router = useRouter();
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <QueryError
        title="This page could not be loaded"
        message="The portal or the reservation service did not answer in time (service unreachable or busy). Your data is safe; try again in a moment."
        onRetry={() =>
          startTransition(() => {
            router.refresh();
            reset();
          })
        }
      />
    </div>
  );
}
