import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ApartmentDesk } from '@/components/apartment/apartment-desk';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { isApiError } from '@/lib/api/errors';
import { requirePageUser } from '@/lib/auth/session';
import { loadApartmentPage, portalApartmentDeps } from '@/lib/views/apartment';
import { isUuid, pageSystem } from '@/lib/views/page-access';

type Props = { params: Promise<{ deviceId: string; groupId: string }> };

export const metadata: Metadata = { title: 'Apartment' };

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
  return (
    <div className="flex flex-col gap-4">
      <Breadcrumbs
        parents={[
          { label: 'Systems', href: '/systems' },
          { label: system.name, href: `/systems/${system.deviceId}` },
        ]}
        current={view.title}
      />
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{view.title}</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {view.group.name && view.group.name !== view.title ? `${view.group.name} · ` : ''}
          {system.name} · at most {view.system.bookingQuota} future booking{view.system.bookingQuota === 1 ? '' : 's'} per room · times in {system.timeZone}
        </p>
      </header>
      <ApartmentDesk initial={view} initialNextFree={nextFree} />
    </div>
  );
}
