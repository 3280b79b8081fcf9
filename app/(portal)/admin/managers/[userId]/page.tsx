import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getLocale, getTranslations } from 'next-intl/server';
import { ActionForm } from '@/components/admin/action-form';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cardClass, errorTextClass, inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import { previewManagerSystems } from '@/lib/admin/accounts';
import { requirePageAdmin } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { isApiError } from '@/lib/errors/api-error';
import { localizeZodError } from '@/lib/errors/validation';
import { parseWholeNumber } from '@/lib/http/whole-number';
import { formatDate } from '@/lib/i18n/format';
import { pageOfManagerSystems, selectionChoices, systemFilterSchema, type SystemFilter } from '@/lib/systems/selection';
import { isUuid } from '@/lib/views/page-access';
import { changeManagerSystemsAction } from '../../actions';

type Props = { params: Promise<{ userId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('admin.managerSystems');
  return { title: t('pageTitle') };
}

const linkClass = 'rounded-md px-3 py-2 text-sm font-medium text-brand-600 underline hover:bg-slate-100 dark:text-brand-100 dark:hover:bg-slate-800';

const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

/** The page's address with the filter (and a page of the list), so a link keeps what was chosen. */
function href(userId: string, filter: SystemFilter, page = 1): string {
  const query = new URLSearchParams();
  if (filter.match) query.set('match', filter.match);
  if (filter.area) query.set('area', filter.area);
  if (filter.connectionId) query.set('connection', filter.connectionId);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return `/admin/managers/${userId}${text ? `?${text}` : ''}`;
}

/**
 * One manager's systems (issue 49): the filter (text, area, approval) with how many systems it
 * selects and how many of those are the manager's, the two bulk changes with that count, and the
 * manager's systems a page at a time. Every read is one statement over all systems.
 */
export default async function ManagerSystemsPage({ params, searchParams }: Props) {
  const { userId } = await params;
  await requirePageAdmin(`/admin/managers/${userId}`);
  if (!isUuid(userId)) notFound();
  const query = await searchParams;
  const locale = await getLocale();
  const parsed = systemFilterSchema.safeParse({ match: one(query.match), area: one(query.area), connectionId: one(query.connection) });
  // A filter the page cannot use is said in a sentence, and the bulk changes wait for a good one.
  const refusal = parsed.success ? null : (await localizeZodError(parsed.error, locale)).summary;
  const filter: SystemFilter = parsed.success ? parsed.data : {};
  const filtered = filter.match !== undefined || filter.area !== undefined || filter.connectionId !== undefined;
  const requestedPage = parseWholeNumber(one(query.page) || '1') ?? 1;

  const { db } = await getDb();
  const preview = await previewManagerSystems(db, userId, filter).catch((error: unknown) => {
    if (isApiError(error) && (error.code === 'not_found' || error.code === 'bad_request')) notFound();
    throw error;
  });
  const [list, choices, mine, t] = await Promise.all([
    pageOfManagerSystems(db, userId, filter, requestedPage),
    selectionChoices(db),
    filtered ? previewManagerSystems(db, userId, {}) : Promise.resolve(preview),
    getTranslations('admin.managerSystems'),
  ]);
  const { manager, matching, assigned } = preview;
  const name = manager.name;
  const toGive = matching - assigned;
  const hidden = (
    <>
      <input type="hidden" name="userId" value={manager.id} />
      <input type="hidden" name="match" value={filter.match ?? ''} />
      <input type="hidden" name="area" value={filter.area ?? ''} />
      <input type="hidden" name="connectionId" value={filter.connectionId ?? ''} />
      {filtered ? null : <input type="hidden" name="all" value="yes" />}
    </>
  );
  const selected = filtered ? 'yes' : 'no';

  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs parents={[{ label: t('accounts'), href: '/admin/managers' }]} current={name} />
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{t('title', { name })}</h1>
        <p className={mutedTextClass}>{t('intro', { name, email: manager.email, count: mine.assigned })}</p>
      </div>

      <section aria-labelledby="choose-heading" className={`${cardClass} flex flex-col gap-4`}>
        <h2 id="choose-heading" className="text-lg font-medium">{t('chooseHeading')}</h2>
        <form method="get" action={`/admin/managers/${manager.id}`} className="flex flex-col gap-3">
          <div className="grid gap-3 sm:grid-cols-3">
            <div className="flex flex-col gap-1">
              <label htmlFor="filter-match" className={labelClass}>{t('match')}</label>
              <input id="filter-match" name="match" type="search" defaultValue={one(query.match)} className={inputClass} />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="filter-area" className={labelClass}>{t('area')}</label>
              <select id="filter-area" name="area" defaultValue={filter.area ?? ''} className={inputClass}>
                <option value="">{t('anyArea')}</option>
                {choices.areas.map((a) => (
                  <option key={a.area} value={a.area}>{t('areaOption', { area: a.area, count: a.systems })}</option>
                ))}
                {/* An area typed into the address that no system has (yet) is still shown as chosen. */}
                {filter.area !== undefined && !choices.areas.some((a) => a.area === filter.area) ? <option value={filter.area}>{filter.area}</option> : null}
              </select>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="filter-connection" className={labelClass}>{t('approval')}</label>
              <select id="filter-connection" name="connection" defaultValue={filter.connectionId ?? ''} className={inputClass}>
                <option value="">{t('anyApproval')}</option>
                {choices.connections.map((c) => (
                  <option key={c.id} value={c.id}>
                    {t('approvalOption', { date: formatDate(c.createdAt.getTime(), 'UTC', locale), count: c.systems, first: c.firstName })}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" variant="secondary">{t('show')}</Button>
            {filtered || refusal ? <Link href={href(manager.id, {})} className={linkClass}>{t('clear')}</Link> : null}
          </div>
        </form>
        {refusal ? (
          <p role="alert" className={errorTextClass}>{refusal}</p>
        ) : (
          <>
            <p id="selection-count" className="font-medium">{t('counts', { filtered: selected, matching, assigned, name })}</p>
            <div className="flex flex-col gap-4 border-t border-slate-200 pt-4 sm:flex-row sm:flex-wrap dark:border-slate-700">
              <ActionForm
                action={changeManagerSystemsAction}
                submitLabel={t('give', { filtered: selected, count: matching, name })}
                disabled={toGive === 0}
                confirm={{
                  title: t('giveTitle', { count: toGive, name }),
                  body: t('giveBody', { count: toGive, name, already: assigned }),
                  confirmLabel: t('giveConfirm', { count: toGive }),
                }}
              >
                {hidden}
                <input type="hidden" name="change" value="assign" />
              </ActionForm>
              <ActionForm
                action={changeManagerSystemsAction}
                submitLabel={t('takeBack', { filtered: selected, count: assigned, name })}
                submitVariant="secondary"
                disabled={assigned === 0}
                confirm={{
                  title: t('takeBackTitle', { count: assigned, name }),
                  body: t('takeBackBody', { name }),
                  confirmLabel: t('takeBackConfirm', { count: assigned }),
                }}
              >
                {hidden}
                <input type="hidden" name="change" value="unassign" />
              </ActionForm>
            </div>
          </>
        )}
      </section>

      <section aria-labelledby="list-heading" className="flex flex-col gap-3">
        <h2 id="list-heading" className="text-lg font-medium">{t('listHeading', { filtered: selected, name, count: list.total })}</h2>
        {list.systems.length === 0 ? (
          <p className={mutedTextClass}>{list.total > 0 ? t('emptyPage') : filtered ? t('noneMatching', { name }) : t('none', { name })}</p>
        ) : (
          <ul aria-label={t('listLabel', { name })} className="divide-y divide-slate-200 rounded-lg border border-slate-300 dark:divide-slate-700 dark:border-slate-700">
            {list.systems.map((s) => (
              <li key={s.deviceId} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
                <div className="min-w-0">
                  <Link href={`/systems/${s.deviceId}`} className="font-medium underline-offset-2 hover:underline">{s.name}</Link>
                  {s.street || s.city ? <p className={mutedTextClass}>{[s.street, s.city].filter(Boolean).join(', ')}</p> : null}
                </div>
                {s.area ? <Badge tone="neutral">{s.area}</Badge> : null}
              </li>
            ))}
          </ul>
        )}
        {list.pageCount > 1 ? (
          <nav aria-label={t('pagesNav', { name })} className="flex flex-wrap items-center gap-3">
            {list.page > 1 ? <Link href={href(manager.id, filter, list.page - 1)} className={linkClass}>{t('previous')}</Link> : null}
            <p className={mutedTextClass}>{t('pageOf', { page: list.page, pageCount: list.pageCount })}</p>
            {list.page < list.pageCount ? <Link href={href(manager.id, filter, list.page + 1)} className={linkClass}>{t('next')}</Link> : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}
