import type { Metadata } from 'next';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { RequestsList } from '@/components/booking/requests-list';
import { isApiError, renderApiError } from '@/lib/errors/api-error';
import { getRequestLocale } from '@/lib/api/request-locale';
import { listAccessibleSystemsIn } from '@/lib/auth/access';
import { requirePageUser } from '@/lib/api/session';
import { REQUESTS_PAGE_SIZE_DEFAULT, requestsSearch, type RequestFilters } from '@/lib/client/request-filters';
import { getDb } from '@/lib/db';
import { parseRequestsQuery, toSearchParams } from '@/lib/views/request-filters';
import { readRequestsFor, requestsTimeZone, type RequestsPageView } from '@/lib/views/requests';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('requests');
  return { title: t('pageTitle') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const FILTER_NAMES = ['deviceId', 'status', 'resident', 'from', 'to', 'q'] as const;

export default async function RequestsPage({ searchParams }: Props) {
  const params = toSearchParams(await searchParams);
  const user = await requirePageUser(`/requests${params.size > 0 ? `?${params.toString()}` : ''}`);
  const { db } = await getDb();
  const systems = await listAccessibleSystemsIn(db, user);
  // As typed, for the form when the server refuses them: the manager corrects rather than retypes.
  let filters: RequestFilters | Record<keyof RequestFilters, string | undefined> = Object.fromEntries(
    FILTER_NAMES.map((name) => [name, params.get(name) ?? undefined]),
  );
  let page: RequestsPageView | null = null;
  let error: string | null = null;
  let search = '';
  let paged = false;
  let pageSize: number | undefined;
  try {
    const query = parseRequestsQuery(params);
    filters = query.filters;
    paged = Boolean(query.before ?? query.after);
    pageSize = query.limit === REQUESTS_PAGE_SIZE_DEFAULT ? undefined : query.limit;
    search = requestsSearch(query.filters, query.before ? { before: params.get('before') ?? '' } : query.after ? { after: params.get('after') ?? '' } : {}, pageSize);
    page = await readRequestsFor(db, user, systems, query);
  } catch (caught) {
    if (isApiError(caught) && (caught.code === 'forbidden' || caught.code === 'not_found')) return <NoAccess />;
    if (!isApiError(caught) || caught.code !== 'bad_request') throw caught;
    error = await renderApiError(caught, await getRequestLocale());
  }
  const deviceId = typeof filters.deviceId === 'string' ? filters.deviceId : undefined;
  return (
    <div className="flex flex-col gap-4">
      <Heading />
      <RequestsList
        key={search || params.toString()}
        systems={systems.map((s) => ({ deviceId: s.deviceId, name: s.name, timeZone: s.timeZone }))}
        filters={filters}
        search={search}
        initial={page}
        error={error}
        paged={paged}
        pageSize={pageSize}
        dateZone={requestsTimeZone(systems, deviceId)}
      />
    </div>
  );
}

async function Heading() {
  const t = await getTranslations('requests');
  return (
    <header className="flex flex-col gap-1">
      <h1 className="text-2xl font-semibold tracking-tight">{t('pageTitle')}</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">{t('intro')}</p>
    </header>
  );
}

/** A system filter the user may not see: said plainly, never widened to every system. */
async function NoAccess() {
  const t = await getTranslations('requests');
  return (
    <div className="flex flex-col gap-4">
      <Heading />
      <div role="alert" className="flex flex-col items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-4 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50">
        <h2 className="font-semibold">{t('noAccess.heading')}</h2>
        <p className="text-sm">{t('noAccess.detail')}</p>
        <Link href="/requests" className="text-sm font-medium underline underline-offset-2">
          {t('noAccess.link')}
        </Link>
      </div>
    </div>
  );
}
