'use client';

import Link from 'next/link';
import type { ResidentResult, ResidentSearchResult } from '@/lib/views/types';
import { QueryError } from './query-error';
import { ResidentFinder } from './resident-finder';
import { ResultsSkeleton } from './skeletons';
import { Badge } from './ui/badge';
import { Card } from './ui/card';
import { mutedTextClass, termClass } from './ui/styles';

export interface ResidentSearchProps {
  /** The search in the URL when the page was loaded, with its server-side results. */
  initialQuery: string;
  initialResult: ResidentSearchResult | null;
  initialError?: string | null;
}

/** One search box for apartment number, e-mail address or reference id; the search is kept in the URL. */
export function ResidentSearch({ initialQuery, initialResult, initialError }: ResidentSearchProps) {
  return (
    <ResidentFinder
      variant="page"
      label="Find a resident"
      hint="Apartment number, e-mail address or reference id, in every system you manage."
      placeholder="e.g. 1203, anna@example.com or REF-01-123456"
      initialQuery={initialQuery}
      initialResult={initialResult}
      initialError={initialError}
      // Next keeps useSearchParams in step with the native history API.
      onSearch={(q) => window.history.replaceState(null, '', `/residents?q=${encodeURIComponent(q)}`)}
    >
      {({ q, query }) => {
        if (q === '') return null;
        if (q === initialQuery && initialError) {
          return <QueryError title="The search failed" message={initialError} onRetry={() => window.location.reload()} />;
        }
        if (query.isError) {
          return <QueryError title="The search failed" message={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
        }
        if (query.isPending) return <ResultsSkeleton />;
        return <Results q={q} residents={query.data.residents} />;
      }}
    </ResidentFinder>
  );
}

function Results({ q, residents }: { q: string; residents: ResidentResult[] }) {
  return (
    <section aria-labelledby="results-heading" className="flex flex-col gap-3">
      <h2 id="results-heading" className="text-lg font-semibold" aria-live="polite">
        {residents.length === 0
          ? `No residents found for “${q}”`
          : `${residents.length} resident${residents.length === 1 ? '' : 's'} found for “${q}”`}
      </h2>
      {residents.length === 0 ? (
        <p className={mutedTextClass}>Check the spelling, or try the apartment number or reference id instead.</p>
      ) : (
        <ul aria-label="Residents" className="grid gap-3 lg:grid-cols-2">
          {residents.map((r) => (
            <Card as="li" key={r.userId} aria-label={r.name} className="flex flex-col gap-3">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h3 className="font-semibold">{r.name}</h3>
                <Badge tone="neutral">{r.systemName}</Badge>
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className={termClass}>Apartment</dt>
                <dd>{r.apartmentId ?? 'none'}</dd>
                <dt className={termClass}>E-mail</dt>
                <dd className="break-all">{r.email}</dd>
              </dl>
              <div className="flex flex-col gap-1">
                <h4 className="text-sm font-medium">May book</h4>
                {r.resources === null ? (
                  <p className={mutedTextClass}>The service did not say; it decides when a booking is sent.</p>
                ) : r.resources.length === 0 ? (
                  <p className={mutedTextClass}>No resources.</p>
                ) : (
                  <ul className="flex flex-col divide-y divide-slate-200 text-sm dark:divide-slate-800">
                    {r.resources.map((res) => (
                      <li key={res.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5">
                        <span>{res.name}</span>
                        <Link
                          href={`/systems/${r.deviceId}/resources/${res.id}?resident=${r.userId}`}
                          aria-label={`Book ${res.name} for ${r.name}`}
                          className="inline-flex min-h-9 items-center rounded-md px-2 font-medium text-brand-700 underline underline-offset-2 hover:bg-brand-50 dark:text-blue-300 dark:hover:bg-slate-800"
                        >
                          Book for this resident
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </Card>
          ))}
        </ul>
      )}
    </section>
  );
}
