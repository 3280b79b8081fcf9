import type { Metadata } from 'next';
import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { SystemListControls } from '@/components/systems/system-list-controls';
import { SystemListView } from '@/components/systems/system-list-view';
import { errorTextClass } from '@/components/ui/styles';
import { visibleTo } from '@/lib/auth/access';
import { requirePageUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { renderMessage } from '@/lib/i18n/server';
import { log } from '@/lib/log';
import { parseSystemListParams } from '@/lib/client/system-list-params';
import { loadSystemList, warmFreeToday } from '@/lib/views/systems-list';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('systems');
  return { title: t('title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SystemsPage({ searchParams }: Props) {
  const user = await requirePageUser('/systems');
  const [t, tl, locale] = await Promise.all([getTranslations('systems'), getTranslations('systemList'), getLocale()]);
  const parsed = parseSystemListParams(await searchParams);
  if (!parsed.ok) {
    return (
      <div className="flex flex-col gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
        <p role="alert" className={errorTextClass}>{await renderMessage(locale, parsed.problem)}</p>
        <Link href="/systems" className="font-medium text-brand-700 underline dark:text-blue-300">{tl('reset')}</Link>
      </div>
    );
  }
  const deps = { db: (await getDb()).db };
  const list = await loadSystemList(deps, visibleTo(user.id), parsed.params);
  warmFreeToday(deps).catch((error: unknown) => log.warn('systems list: free-slot pass failed', { error }));
  const nothingAtAll = list.total === 0 && parsed.params.page === 1 && !parsed.params.q && !parsed.params.area && parsed.params.filters.length === 0;
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
      {nothingAtAll ? (
        <p className="text-slate-600 dark:text-slate-300">{user.role === 'admin' ? t('noneAdmin') : t('noneManager')}</p>
      ) : (
        <>
          <SystemListControls params={parsed.params} areas={list.areas} />
          <SystemListView list={list} linkBase="/systems" label={t('yourSystems')} />
        </>
      )}
    </div>
  );
}
