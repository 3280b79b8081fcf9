import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { BuildingBody } from '@/components/building/building-view';
import { requirePageUser } from '@/lib/api/session';
import { buildingParams, loadBuildingView } from '@/lib/views/building';
import { portalViewDeps } from '@/lib/wiring';
import { pageSystem } from '@/lib/views/page-access';

type Props = {
  params: Promise<{ deviceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('building');
  return { title: t('title') };
}

/** Every room of a system for one day or week, server-rendered with its bookings (no client fetch). */
export default async function BuildingPage({ params, searchParams }: Props) {
  const { deviceId } = await params;
  const user = await requirePageUser(`/systems/${deviceId}/building`);
  const system = await pageSystem(user, deviceId);
  // Mistyped parameters fall back to their defaults, and the page says so.
  const asked = buildingParams(await searchParams);
  const view = await loadBuildingView(await portalViewDeps(), system, asked);
  const problems = view.unknownRoom && asked.roomId ? [...asked.problems, { kind: 'room' as const, input: asked.roomId }] : asked.problems;
  const [t, ts] = await Promise.all([getTranslations('building'), getTranslations('systems')]);
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <Breadcrumbs
        parents={[
          { label: ts('title'), href: '/systems' },
          { label: system.name, href: `/systems/${system.deviceId}` },
        ]}
        current={t('title')}
      />
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">{t('subtitle', { system: system.name, zone: system.timeZone })}</p>
      </header>
      <BuildingBody
        timeZone={system.timeZone}
        mode={view.mode}
        day={view.day}
        week={view.week}
        nav={view.nav}
        allRooms={view.allRooms}
        rooms={view.rooms}
        loading={view.freshness.status === 'loading'}
        onlyFree={asked.onlyFree}
        roomId={view.unknownRoom ? undefined : asked.roomId}
        show={asked.show}
        problems={problems}
      />
    </div>
  );
}
