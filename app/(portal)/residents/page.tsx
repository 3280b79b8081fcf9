import type { Metadata } from 'next';
import { ResidentResults } from '@/components/resident-results';
import { ResidentSearch } from '@/components/resident-search';
import { handleApiError } from '@/lib/api/errors';
import { getRequestLocale } from '@/lib/i18n/request-locale';
import { renderMessage } from '@/lib/i18n/server';
import { requirePageUser } from '@/lib/auth/session';
import { searchResidentsFor } from '@/lib/views/live-deps';
import { parseResidentQuery } from '@/lib/views/residents';
import type { ResidentSearchResult } from '@/lib/views/types';

export const metadata: Metadata = { title: 'Residents' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ResidentsPage({ searchParams }: Props) {
  const user = await requirePageUser('/residents');
  const raw = (await searchParams).q;
  const parsed = parseResidentQuery(Array.isArray(raw) ? raw[0] : raw);
  const q = parsed.ok ? parsed.query : '';
  let result: ResidentSearchResult | null = null;
  const locale = await getRequestLocale();
  let error: string | null = parsed.ok ? null : await renderMessage(locale, parsed.message);
  if (q !== '') {
    try {
      result = await searchResidentsFor(user, q);
    } catch (caught) {
      // The same words a route handler would answer (service errors become plain sentences).
      const body = (await (await handleApiError(caught, locale)).json()) as { error: { message: string } };
      error = body.error.message;
    }
  }
  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Residents</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">Look up a resident and open their apartment.</p>
      </header>
      <ResidentSearch key={q} initialQuery={q} />
      {error ? (
        <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50">
          <p className="font-semibold">The search failed</p>
          <p className="text-sm">{error}</p>
        </div>
      ) : null}
      {result ? <ResidentResults q={q} result={result} /> : null}
    </div>
  );
}
