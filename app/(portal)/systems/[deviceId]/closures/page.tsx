import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ClosuresManager } from '@/components/closures/closures-manager';
import { mutedTextClass } from '@/components/ui/styles';
import { requirePageUser } from '@/lib/api/session';
import { listClosures } from '@/lib/closures';
import { getDb } from '@/lib/db';
import { readResources } from '@/lib/mirror/store';
import { pageSystem } from '@/lib/views/page-access';

type Props = { params: Promise<{ deviceId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { deviceId } = await params;
  const user = await requirePageUser(`/systems/${deviceId}/closures`);
  const system = await pageSystem(user, deviceId);
  const t = await getTranslations('closures');
  return { title: t('title', { system: system.name }) };
}

export default async function ClosuresPage({ params }: Props) {
  const { deviceId } = await params;
  const user = await requirePageUser(`/systems/${deviceId}/closures`);
  const system = await pageSystem(user, deviceId);
  const { db } = await getDb();
  const [closures, resources, t, ts] = await Promise.all([
    listClosures(db, system),
    readResources(db, system.deviceId),
    getTranslations('closures'),
    getTranslations('systems'),
  ]);
  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs parents={[{ label: ts('title'), href: '/systems' }, { label: system.name, href: `/systems/${system.deviceId}` }]} current={t('breadcrumb')} />
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{t('title', { system: system.name })}</h1>
        <p className="text-sm">{t('intro')}</p>
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          {t('outsideNote')}
        </p>
        <p className={mutedTextClass}>{t('timesIn', { zone: system.timeZone })}</p>
      </header>
      <ClosuresManager deviceId={system.deviceId} timeZone={system.timeZone} rooms={resources.map((r) => ({ id: r.id, name: r.name }))} initial={closures} />
    </div>
  );
}
