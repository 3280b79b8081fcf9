'use client';

import { ClosedNotes } from '@/components/closures/closed-notes';
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { fetchJson } from '@/lib/client/fetch-json';
import { queryKeys } from '@/lib/client/query-keys';
import type { SystemOverview } from '@/lib/views/types';
import { FreshnessNote } from './freshness-note';
import { OccupancyHeatmap } from './occupancy-heatmap';
import { StaleDataError } from '@/components/ui/query-error';
import { ResourceSummary } from './resource-summary';
import { OverviewSkeleton } from './skeletons';
import { Card } from './ui/card';
import { mutedTextClass } from './ui/styles';

/** The system page's live part: first data from the server, then kept current by React Query. */
export function SystemOverviewLive({ initial }: { initial: SystemOverview }) {
  const deviceId = initial.system.deviceId;
  const query = useQuery({
    queryKey: queryKeys.systemOverview(deviceId),
    queryFn: ({ signal }) => fetchJson<SystemOverview>(`/api/systems/${deviceId}/overview`, { signal }),
    initialData: initial,
    initialDataUpdatedAt: initial.generatedAt,
    // Poll while a never-loaded system loads; afterwards follow the mirror's freshness.
    refetchInterval: (q) => (q.state.data?.freshness.status === 'loading' ? 1000 : 30_000),
  });
  const t = useTranslations('overview');
  const data = query.data;
  const { system } = data;
  return (
    <div className="flex flex-col gap-6">
      <FreshnessNote freshness={data.freshness} timeZone={system.timeZone} />
      <StaleDataError query={query} namespace="overview" />
      {/* A first load lists the rooms as soon as they are in (freshness.partial), their occupancy after. */}
      {data.freshness.status === 'loading' && data.resources.length === 0 ? (
        <OverviewSkeleton />
      ) : (
        <div className="flex flex-col gap-6 xl:grid xl:grid-cols-[minmax(0,1fr)_28rem] xl:items-start">
          <section aria-labelledby="resources-heading" className="flex flex-col gap-3">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id="resources-heading" className="text-lg font-semibold">
                {t('resources')}
              </h2>
              <p className={mutedTextClass}>{t('bookedShare')}</p>
            </div>
            {data.resources.length === 0 ? (
              <p className="text-slate-700 dark:text-slate-300">{t('noResources')}</p>
            ) : (
              <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-1" aria-label={t('resources')}>
                {data.resources.map((r) => (
                  <li key={r.id}>
                    <ResourceSummary
                      name={r.name}
                      description={r.description}
                      href={`/systems/${deviceId}/resources/${r.id}`}
                      stats={r.occupancy}
                      status={r.now}
                      loadingText={t('occupancyLoading')}
                    />
                    <ClosedNotes notes={r.closures} timeZone={data.system.timeZone} />
                  </li>
                ))}
              </ul>
            )}
          </section>
          {data.heatmap ? (
            <Card as="section">
              <OccupancyHeatmap heatmap={data.heatmap} />
            </Card>
          ) : null}
        </div>
      )}
    </div>
  );
}
