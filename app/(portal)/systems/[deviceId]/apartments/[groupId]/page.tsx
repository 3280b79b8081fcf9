import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { ApartmentDesk } from '@/components/apartment/apartment-desk';
import { apartmentTitleText } from '@/components/apartment/apartment-title';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { FeedSection } from '@/components/feeds/feed-section';
import { isApiError } from '@/lib/errors/api-error';
import { listFeedsForPage } from '@/lib/feeds/feeds';
import { requirePageUser } from '@/lib/api/session';
import { loadApartmentPage } from '@/lib/views/apartment';
import { portalApartmentDeps } from '@/lib/wiring';
import { isUuid, pageSystem } from '@/lib/views/page-access';

type Props = { params: Promise<{ deviceId: string; groupId: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('apartment');
  return { title: t('pageTitle') };
}

export default async function ApartmentPage({ params }: Props) {
  const { deviceId, groupId } = await params;
  const user = await requirePageUser(`/systems/${deviceId}/apartments/${groupId}`);
  const system = await pageSystem(user, deviceId);
  if (!isUuid(groupId)) notFound();
  const deps = await portalApartmentDeps();
  const { view, nextFree } = await loadApartmentPage(deps, system, groupId.toLowerCase()).catch((error: unknown) => {
    if (isApiError(error) && error.code === 'not_found') notFound();
    throw error;
  });
  const t = await getTranslations();
  const title = apartmentTitleText(view.title, t);
  const groupName = view.group.name.trim();
  return (
    <div className="flex flex-col gap-4">
      <Breadcrumbs
        parents={[
          { label: t('shell.systems'), href: '/systems' },
          { label: system.name, href: `/systems/${system.deviceId}` },
        ]}
        current={title}
      />
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t('apartment.subtitle', {
            group: groupName,
            groupShown: groupName && groupName !== title ? 'yes' : 'no',
            system: system.name,
            quota: view.system.bookingQuota,
            timeZone: system.timeZone,
          })}
        </p>
      </header>
      <ApartmentDesk initial={view} initialNextFree={nextFree} />
      <FeedSection
        deviceId={system.deviceId}
        target={{ scope: 'apartment', groupId: view.group.id }}
        initialFeeds={await listFeedsForPage(system, { scope: 'apartment', groupId: view.group.id })}
        timeZone={system.timeZone}
      />
    </div>
  );
}
