import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { notFound } from 'next/navigation';
import { FeedSection } from '@/components/feeds/feed-section';
import { BookableResourceWeek } from '@/components/resource-week/bookable-resource-week';
import { isApiError } from '@/lib/errors/api-error';
import { listFeedsForPage } from '@/lib/feeds/feeds';
import { requirePageUser } from '@/lib/api/session';
import { readUserGroups } from '@/lib/mirror/store';
import { portalReservationDeps, portalViewDeps } from '@/lib/wiring';
import { residentSummary } from '@/lib/reservations';
import { weekParam } from '@/lib/schedule/week';
import { InvalidWeekAlert } from '@/components/resource-week/invalid-week-alert';
import { isUuid, pageSystem } from '@/lib/views/page-access';
import { loadResourceWeek } from '@/lib/views/resource-week';

type Props = {
  params: Promise<{ deviceId: string; resourceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('systems');
  return { title: t('resource') };
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function ResourcePage({ params, searchParams }: Props) {
  const { deviceId, resourceId } = await params;
  const query = await searchParams;
  const path = `/systems/${deviceId}/resources/${resourceId}`;
  const user = await requirePageUser(path);
  const system = await pageSystem(user, deviceId);
  if (!isUuid(resourceId)) notFound();
  // A mistyped week in the URL shows the current week, and says so (never silently).
  const { key: week, problem: invalidWeek } = weekParam(query.week);
  const resident = first(query.resident);
  const residentUserId = resident && isUuid(resident) ? resident.toLowerCase() : null;

  let view;
  try {
    view = await loadResourceWeek(await portalViewDeps(), system, resourceId, week);
  } catch (error) {
    if (isApiError(error) && error.code === 'not_found') notFound();
    throw error;
  }
  const t = await getTranslations('systems');
  const name = view.resource?.name ?? t('resource');
  // The resident a booking is for when the page was opened from the residents page.
  const preselected = residentUserId ? await preselect(system.deviceId, residentUserId) : null;
  return (
    <div className="flex flex-col gap-4">
      <Breadcrumbs
        parents={[
          { label: t('title'), href: '/systems' },
          { label: system.name, href: `/systems/${system.deviceId}` },
        ]}
        current={name}
      />
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{name}</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {view.resource?.description ? `${view.resource.description} · ` : ''}
          {t('resourceSubtitle', { system: system.name, zone: system.timeZone })}
        </p>
      </header>
      {invalidWeek ? <InvalidWeekAlert problem={invalidWeek} /> : null}
      <BookableResourceWeek initial={view} resourceId={resourceId.toLowerCase()} preselected={preselected} />
      {view.resource ? (
        <FeedSection
          deviceId={system.deviceId}
          target={{ scope: 'room', resourceId: resourceId.toLowerCase() }}
          initialFeeds={await listFeedsForPage(system, { scope: 'room', resourceId: resourceId.toLowerCase() })}
          timeZone={system.timeZone}
        />
      ) : null}
    </div>
  );
}

async function preselect(deviceId: string, userId: string) {
  try {
    const deps = await portalReservationDeps();
    return await residentSummary(deps.client, await deps.apiKeyFor(deviceId), deviceId, userId, async (groupId) => {
      const [group] = await readUserGroups(deps.db, deviceId, [groupId]);
      return group?.apartmentId || null;
    });
  } catch {
    // Without the service the dialog still lets the manager search for the resident.
    return null;
  }
}
