import type { Metadata } from 'next';
import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { ActionForm } from '@/components/admin/action-form';
import { MirrorLoadProgress } from '@/components/admin/mirror-load-progress';
import { SystemImport } from '@/components/admin/system-import';
import { SystemListControls } from '@/components/systems/system-list-controls';
import { SystemListView } from '@/components/systems/system-list-view';
import { cardClass, errorTextClass, inputClass, labelClass } from '@/components/ui/styles';
import { visibleTo } from '@/lib/auth/access';
import { requirePageAdmin } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { renderMessage } from '@/lib/i18n/server';
import { log } from '@/lib/log';
import { parseSystemListParams, systemListQuery } from '@/lib/client/system-list-params';
import { readLoadProgress } from '@/lib/mirror/progress';
import { loadSystemList, warmFreeToday } from '@/lib/views/systems-list';
import { connectSystemsAction } from '../actions';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('admin.systems');
  return { title: t('title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const linkClass = 'font-medium text-brand-700 underline dark:text-blue-300';

/**
 * Connected systems: connecting, the import and export of names and places, and one page of the
 * list (issue 49: never every system's settings; each system's are on its own page).
 */
export default async function AdminSystemsPage({ searchParams }: Props) {
  const admin = await requirePageAdmin('/admin/systems');
  const [t, tl, ti, locale] = await Promise.all([getTranslations('admin.systems'), getTranslations('systemList'), getTranslations('systemImport'), getLocale()]);
  const parsed = parseSystemListParams(await searchParams);
  const deps = { db: (await getDb()).db };
  const [list, progress] = await Promise.all([parsed.ok ? loadSystemList(deps, visibleTo(admin.id), parsed.params) : null, readLoadProgress(deps.db)]);
  if (list) warmFreeToday(deps).catch((error: unknown) => log.warn('systems list: free-slot pass failed', { error }));
  const query = parsed.ok ? systemListQuery({ ...parsed.params, page: 1 }) : '';
  const exportHref = (format: 'csv' | 'xlsx') => `/api/admin/systems/export${query ? `${query}&` : '?'}format=${format}`;
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
      <MirrorLoadProgress progress={progress} />
      <section aria-labelledby="connect-heading" className={cardClass}>
        <h2 id="connect-heading" className="mb-3 text-lg font-medium">{t('connectHeading')}</h2>
        <ActionForm action={connectSystemsAction} submitLabel={t('connectSubmit')} resetOnSuccess>
          <div className="flex flex-col gap-1">
            <label htmlFor="approvalId" className={labelClass}>{t('approvalId')}</label>
            <input id="approvalId" name="approvalId" required autoComplete="off" className={inputClass} aria-describedby="approvalId-hint" />
            <p id="approvalId-hint" className="text-xs text-slate-500 dark:text-slate-400">
              {t('approvalHint', { example: '1b4e28ba-2fa1-11d2-883f-0016d3cca427' })}
            </p>
          </div>
        </ActionForm>
      </section>
      <section aria-labelledby="import-heading" className={cardClass}>
        <h2 id="import-heading" className="mb-3 text-lg font-medium">{ti('heading')}</h2>
        <SystemImport />
        <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <span>{ti('exportLead')}</span>
          <a href={exportHref('csv')} className={linkClass} download>{ti('exportCsv')}</a>
          <a href={exportHref('xlsx')} className={linkClass} download>{ti('exportXlsx')}</a>
        </p>
      </section>
      <section aria-labelledby="systems-heading" className="flex flex-col gap-3">
        <h2 id="systems-heading" className="text-lg font-medium">{t('listHeading', { count: list?.total ?? 0 })}</h2>
        {!parsed.ok ? (
          <>
            <p role="alert" className={errorTextClass}>{await renderMessage(locale, parsed.problem)}</p>
            <Link href="/admin/systems" className={linkClass}>{tl('reset')}</Link>
          </>
        ) : list && list.total === 0 && list.params.page === 1 && !list.params.q && !list.params.area && list.params.filters.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-300">{t('none')}</p>
        ) : list ? (
          <>
            <SystemListControls params={list.params} areas={list.areas} />
            <SystemListView list={list} linkBase="/admin/systems" label={t('listLabel')} showDeviceId />
          </>
        ) : null}
      </section>
    </div>
  );
}
