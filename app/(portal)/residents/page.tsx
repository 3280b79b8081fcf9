import type { Metadata } from 'next';
import { ResidentSearch } from '@/components/resident-search';
import { handleApiError } from '@/lib/api/errors';
import { requirePageUser } from '@/lib/auth/session';
import { searchResidentsFor } from '@/lib/views/live-deps';
import { residentQuerySchema } from '@/lib/views/residents';
import type { ResidentSearchResult } from '@/lib/views/types';

export const metadata: Metadata = { title: 'Residents' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ResidentsPage({ searchParams }: Props) {
  const user = await requirePageUser('/residents');
  const raw = (await searchParams).q;
  const q = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  let result: ResidentSearchResult | null = null;
  let error: string | null = null;
  if (q !== '') {
    const parsed = residentQuerySchema.safeParse(q);
    if (!parsed.success) {
      error = parsed.error.issues[0]?.message ?? 'Invalid search.';
    } else {
      try {
        result = { residents: await searchResidentsFor(user, parsed.data) };
      } catch (caught) {
        // The same words a route handler would answer (service errors become plain sentences).
        const body = (await handleApiError(caught).json()) as { error: { message: string } };
        error = body.error.message;
      }
    }
  }
  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Residents</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">Look up a resident and book on their behalf.</p>
      </header>
      <ResidentSearch key={q} initialQuery={q} initialResult={result} initialError={error} />
    </div>
  );
}
