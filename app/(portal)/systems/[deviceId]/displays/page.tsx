import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { DisplaysManager } from '@/components/displays/displays-manager';
import { requirePageUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { listDisplays } from '@/lib/displays/displays';
import { readResources } from '@/lib/mirror/store';
import { pageSystem } from '@/lib/views/page-access';

type Props = { params: Promise<{ deviceId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { deviceId } = await params;
  const user = await requirePageUser(`/systems/${deviceId}/displays`);
  const system = await pageSystem(user, deviceId);
  const t = await getTranslations('displays');
  return { title: t('title', { system: system.name }) };
}

export default async function DisplaysPage({ params }: Props) {
  const { deviceId } = await params;
  const user = await requirePageUser(`/systems/${deviceId}/displays`);
  const system = await pageSystem(user, deviceId);
  const { db } = await getDb();
  const [displays, resources, t, ts] = await Promise.all([
    listDisplays(db, user, system.deviceId),
    readResources(db, system.deviceId),
    getTranslations('displays'),
    getTranslations('systems'),
  ]);
  return (
    <div className="flex flex-col gap-6">
      <Breadcrumbs parents={[{ label: ts('title'), href: '/systems' }, { label: system.name, href: `/systems/${system.deviceId}` }]} current={t('breadcrumb')} />
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{t('title', { system: system.name })}</h1>
        <p className="text-sm">{t('intro')}</p>
      </header>
      <DisplaysManager
        deviceId={system.deviceId}
        systemName={system.name}
        timeZone={system.timeZone}
        rooms={resources.map((r) => ({ id: r.id, name: r.name }))}
        initial={displays}
      />
    </div>
  );
}
