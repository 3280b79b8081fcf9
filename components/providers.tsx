'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { isHttpError } from '@/lib/client/fetch-json';

/** Data counts as fresh for this long; the server's mirror refreshes on its own schedule. */
export const QUERY_STALE_TIME_MS = 10_000;

/** The one QueryClient factory (one client per browser tab). */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_STALE_TIME_MS,
        refetchOnWindowFocus: true,
        // A 4xx will not change by asking again; network errors and 5xx get two more tries.
        retry: (failureCount, error) => !(isHttpError(error) && error.status >= 400 && error.status < 500) && failureCount < 2,
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(makeQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
