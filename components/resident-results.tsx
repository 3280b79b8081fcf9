import Link from 'next/link';
import { apartmentHref, apartmentLabel, residentName } from '@/lib/residents/search';
import type { ResidentSearchResult } from '@/lib/views/types';
import { Badge } from './ui/badge';
import { Card } from './ui/card';
import { mutedTextClass, termClass } from './ui/styles';

/** The results of `?q=` on the Residents page, rendered by the server: one card per apartment. */
export function ResidentResults({ q, result }: { q: string; result: ResidentSearchResult }) {
  const { apartments, truncated } = result;
  return (
    <section aria-labelledby="results-heading" className="flex flex-col gap-3">
      <h2 id="results-heading" className="text-lg font-semibold">
        {apartments.length === 0
          ? `No residents found for “${q}”`
          : `${apartments.length}${truncated ? '+' : ''} apartment${apartments.length === 1 ? '' : 's'} found for “${q}”`}
      </h2>
      {apartments.length === 0 ? (
        <p className={mutedTextClass}>Check the spelling, or try a name, an apartment number, an e-mail address or a reference id.</p>
      ) : null}
      {truncated ? <p className={mutedTextClass}>Only the best matches are listed: add to the search to narrow it.</p> : null}
      {apartments.length > 0 ? (
        <ul aria-label="Apartments found" className="grid gap-3 lg:grid-cols-2">
          {apartments.map((hit) => {
            const label = hit.groupId === null ? 'No apartment' : `Apartment ${apartmentLabel(hit)}`;
            return (
              <Card as="li" key={`${hit.deviceId}:${hit.groupId ?? hit.residents[0]?.userId}`} aria-label={`${label}, ${hit.systemName}`} className="flex flex-col gap-3">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <h3 className="font-semibold">
                    <Link href={apartmentHref(hit)} className="text-brand-700 underline underline-offset-2 dark:text-blue-300">
                      {label}
                    </Link>
                  </h3>
                  <Badge tone="neutral">{hit.systemName || 'Unnamed system'}</Badge>
                </div>
                {hit.referenceId ? (
                  <dl className="grid grid-cols-[auto_1fr] gap-x-4 text-sm">
                    <dt className={termClass}>Reference</dt>
                    <dd className="break-all">{hit.referenceId}</dd>
                  </dl>
                ) : null}
                <ul aria-label={`Residents of ${label}`} className="flex flex-col divide-y divide-slate-200 text-sm dark:divide-slate-800">
                  {hit.residents.map((r) => (
                    <li key={r.userId} className="flex flex-wrap justify-between gap-x-3 py-1.5">
                      <span className="font-medium">{residentName(r)}</span>
                      <span className="break-all text-slate-700 dark:text-slate-300">{r.email || 'No e-mail address'}</span>
                    </li>
                  ))}
                </ul>
              </Card>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
