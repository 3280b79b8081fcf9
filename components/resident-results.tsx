import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { ResultNextFree } from '@/components/booking/result-next-free';
import { apartmentHref } from '@/lib/residents/search';
import { apartmentWords, residentWords, systemWords } from './resident-words';
import type { ResidentSearchResult } from '@/lib/residents/search';
import { Badge } from './ui/badge';
import { Card } from './ui/card';
import { mutedTextClass, termClass } from './ui/styles';

/** The results of `?q=` on the Residents page, rendered by the server: one card per apartment. */
export function ResidentResults({ q, result }: { q: string; result: ResidentSearchResult }) {
  const { apartments, truncated } = result;
  const t = useTranslations('residents');
  return (
    <section aria-labelledby="results-heading" className="flex flex-col gap-3">
      <h2 id="results-heading" className="text-lg font-semibold">
        {apartments.length === 0 ? t('results.none', { q }) : t('results.found', { count: apartments.length, more: truncated ? 'yes' : 'no', q })}
      </h2>
      {apartments.length === 0 ? (
        <p className={mutedTextClass}>{t('results.noneHint')}</p>
      ) : null}
      {truncated ? <p className={mutedTextClass}>{t('results.truncated')}</p> : null}
      {result.notLoaded ? <p className={mutedTextClass}>{t('notLoaded', { count: result.notLoaded })}</p> : null}
      {apartments.length > 0 ? (
        <ul aria-label={t('results.listLabel')} className="grid gap-3 lg:grid-cols-2">
          {apartments.map((hit) => {
            const label = apartmentWords(hit, t);
            return (
              <Card as="li" key={`${hit.deviceId}:${hit.groupId ?? hit.residents[0]?.userId}`} aria-label={t('groupLabel', { apartment: label, system: hit.systemName })} className="flex flex-col gap-3">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <h3 className="font-semibold">
                    <Link href={apartmentHref(hit)} className="text-brand-700 underline underline-offset-2 dark:text-blue-300">
                      {label}
                    </Link>
                  </h3>
                  <Badge tone="neutral">{systemWords(hit, t)}</Badge>
                </div>
                {hit.referenceId ? (
                  <dl className="grid grid-cols-[auto_1fr] gap-x-4 text-sm">
                    <dt className={termClass}>{t('results.reference')}</dt>
                    <dd className="break-all">{hit.referenceId}</dd>
                  </dl>
                ) : null}
                <ul aria-label={t('results.residentsOf', { apartment: label })} className="flex flex-col divide-y divide-slate-200 text-sm dark:divide-slate-800">
                  {hit.residents.map((r) => (
                    <li key={r.userId} className="flex flex-wrap justify-between gap-x-3 py-1.5">
                      <span className="font-medium">{residentWords(r, t)}</span>
                      <span className="break-all text-slate-700 dark:text-slate-300">{r.email || t('noEmail')}</span>
                    </li>
                  ))}
                </ul>
                {hit.groupId ? <ResultNextFree deviceId={hit.deviceId} groupId={hit.groupId} residentUserId={hit.residents[0]?.userId ?? null} apartment={label} /> : null}
              </Card>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
