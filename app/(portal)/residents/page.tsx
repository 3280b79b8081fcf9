import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ResidentResults } from '@/components/resident-results';
import { handleApiError } from '@/lib/errors/api-error';
import { getRequestLocale } from '@/lib/api/request-locale';
import { requirePageUser } from '@/lib/api/session';
import { searchResidentsFor } from '@/lib/api/resident-search';
import { parseResidentQuery } from '@/lib/views/residents';
import { RESIDENT_QUERY_MAX_LENGTH, type ResidentSearchResult } from '@/lib/residents/search';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('residents');
  return { title: t('pageTitle') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ResidentsPage({ searchParams }: Props) {
  const user = await requirePageUser('/residents');
  const t = await getTranslations('residents');
  const raw = (await searchParams).q;
  const parsed = parseResidentQuery(Array.isArray(raw) ? raw[0] : raw);
  const q = parsed.ok ? parsed.query : '';
  let result: ResidentSearchResult | null = null;
  let error: string | null = parsed.ok ? null : t('query', { problem: parsed.problem, max: RESIDENT_QUERY_MAX_LENGTH });
  if (q !== '') {
    try {
      result = await searchResidentsFor(user, q);
    } catch (caught) {
      // The same words a route handler would answer (service errors become plain sentences).
      const body = (await (await handleApiError(caught, await getRequestLocale())).json()) as { error: { message: string } };
      error = body.error.message;
    }
  }
  return (
    // The heading and the search box are the layout's (decision 018).
    <div className="flex flex-col gap-4">
      {error ? (
        <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50">
          <p className="font-semibold">{t('searchFailed')}</p>
          <p className="text-sm">{error}</p>
        </div>
      ) : null}
      {result ? <ResidentResults q={q} result={result} /> : null}
    </div>
  );
}
