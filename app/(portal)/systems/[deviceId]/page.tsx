import type { Metadata } from 'next';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { SkippedItemsNote } from '@/components/freshness-note';
import { SystemOverviewLive } from '@/components/system-overview-live';
import { requirePageUser } from '@/lib/api/session';
import { pageSystem } from '@/lib/views/page-access';
import { portalViewDeps } from '@/lib/wiring';
import { loadSystemOverview } from '@/lib/views/system-overview';

type Props = { params: Promise<{ deviceId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { deviceId } = await params;
  const user = await requirePageUser(`/systems/${deviceId}`);
  const system = await pageSystem(user, deviceId);
  return { title: system.name };
}

export default async function SystemPage({ params }: Props) {
  const { deviceId } = await params;
  const user = await requirePageUser(`/systems/${deviceId}`);
  const system = await pageSystem(user, deviceId);
  // Admins also see what the service sent that the portal could not read; managers do not.
  const overview = await loadSystemOverview(await portalViewDeps(), system, { includeSkipped: user.role === 'admin' });
  const [t, tr, tc, tb, td] = await Promise.all([getTranslations('systems'), getTranslations('reports'), getTranslations('closures'), getTranslations('building'), getTranslations('displays')]);
  return (
    <div className="flex flex-col gap-4">
      <Breadcrumbs parents={[{ label: t('title'), href: '/systems' }]} current={system.name} />
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{system.name}</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">{t('timesIn', { zone: system.timeZone })}</p>
        <p className="text-sm">
          <Link href={`/systems/${system.deviceId}/reports`} className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
            {tr('openReport')}
          </Link>
          {' · '}
          <Link href={`/systems/${system.deviceId}/closures`} className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
            {tc('link')}
          </Link>
        </p>
        <p className="text-sm">
          <Link href={`/systems/${system.deviceId}/building`} className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
            {tb('openLink')}
          </Link>
          {' · '}
          <Link href={`/systems/${system.deviceId}/displays`} className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
            {td('link')}
          </Link>
        </p>
      </header>
      {overview.skipped ? <SkippedItemsNote skipped={overview.skipped} /> : null}
      <SystemOverviewLive initial={overview} />
    </div>
  );
}
