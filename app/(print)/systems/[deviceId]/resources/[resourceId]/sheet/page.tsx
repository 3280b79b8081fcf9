import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { WeekSheet } from '@/components/week-sheet/week-sheet';
import { isApiError } from '@/lib/errors/api-error';
import { requirePageUser } from '@/lib/api/session';
import { weekParam } from '@/lib/schedule/week';
import { InvalidWeekAlert } from '@/components/resource-week/invalid-week-alert';
import { portalViewDeps } from '@/lib/wiring';
import { isUuid, pageSystem } from '@/lib/views/page-access';
import { loadResourceWeek } from '@/lib/views/resource-week';

type Props = {
  params: Promise<{ deviceId: string; resourceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('sheet');
  return { title: t('title') };
}

/** The printable week sheet of one room: the same week data as the room's grid, on one A4 page. */
export default async function WeekSheetPage({ params, searchParams }: Props) {
  const { deviceId, resourceId } = await params;
  const query = await searchParams;
  const user = await requirePageUser(`/systems/${deviceId}/resources/${resourceId}/sheet`);
  const system = await pageSystem(user, deviceId);
  if (!isUuid(resourceId)) notFound();
  // A mistyped week in the URL shows the current week, and says so (never silently).
  const { key: week, problem: invalidWeek } = weekParam(query.week);

  let view;
  try {
    view = await loadResourceWeek(await portalViewDeps(), system, resourceId, week);
  } catch (error) {
    if (isApiError(error) && error.code === 'not_found') notFound();
    throw error;
  }
  const t = await getTranslations('sheet');
  const roomHref = `/systems/${system.deviceId}/resources/${resourceId.toLowerCase()}?week=${view.week.key}`;
  return (
    <div className="flex flex-col gap-3">
      {invalidWeek ? <InvalidWeekAlert problem={invalidWeek} className="print:hidden" /> : null}
      {/* A first load's week (freshness.partial) is not printed: its free slots are not known yet. */}
      {view.resource === null || view.freshness.status === 'loading' ? (
        <p role="status" className="text-sm">
          {t('loading')}
        </p>
      ) : (
        <WeekSheet
          systemName={system.name}
          resourceName={view.resource.name}
          timeZone={system.timeZone}
          week={view.week}
          slots={view.slots}
          generatedAt={view.generatedAt}
          roomHref={roomHref}
        />
      )}
    </div>
  );
}
