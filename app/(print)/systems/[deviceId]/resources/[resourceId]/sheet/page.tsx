import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { WeekSheet } from '@/components/week-sheet/week-sheet';
import { isApiError } from '@/lib/api/errors';
import { requirePageUser } from '@/lib/auth/session';
import { type WeekKeyProblem, parseWeekKey } from '@/lib/schedule/week';
import { portalViewDeps } from '@/lib/views/live-deps';
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

type SystemsT = Awaited<ReturnType<typeof getTranslations<'systems'>>>;

/** Why the address's week was refused, in the reader's language (the room page's own wording). */
function weekProblemText(problem: WeekKeyProblem, t: SystemsT): string {
  switch (problem.kind) {
    case 'shape':
      return t('invalidWeekReason.shape', { input: problem.input });
    case 'year':
      return t('invalidWeekReason.year', { min: String(problem.min), max: String(problem.max) });
    case 'week':
      return t('invalidWeekReason.week', { year: String(problem.year), weeks: String(problem.weeks), week: problem.week });
  }
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The printable week sheet of one room: the same week data as the room's grid, on one A4 page. */
export default async function WeekSheetPage({ params, searchParams }: Props) {
  const { deviceId, resourceId } = await params;
  const query = await searchParams;
  const user = await requirePageUser(`/systems/${deviceId}/resources/${resourceId}/sheet`);
  const system = await pageSystem(user, deviceId);
  if (!isUuid(resourceId)) notFound();
  const asked = first(query.week);
  // A mistyped week shows the current week, and says so on screen (as the room page does).
  const parsedWeek = asked === undefined || asked === '' ? null : parseWeekKey(asked);
  const invalidWeek = parsedWeek && !parsedWeek.ok ? parsedWeek.problem : null;
  const week = parsedWeek?.ok ? parsedWeek.key : undefined;

  let view;
  try {
    view = await loadResourceWeek(await portalViewDeps(), system, resourceId, week);
  } catch (error) {
    if (isApiError(error) && error.code === 'not_found') notFound();
    throw error;
  }
  const [t, systemsT] = await Promise.all([getTranslations('sheet'), getTranslations('systems')]);
  const roomHref = `/systems/${system.deviceId}/resources/${resourceId.toLowerCase()}?week=${view.week.key}`;
  return (
    <div className="flex flex-col gap-3">
      {invalidWeek ? (
        <p role="alert" className="rounded-lg border border-amber-400 bg-amber-50 px-4 py-2 text-sm text-amber-950 print:hidden dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50">
          {systemsT.rich('invalidWeek', {
            reason: weekProblemText(invalidWeek, systemsT),
            strong: (chunks) => <strong className="font-semibold">{chunks}</strong>,
          })}
        </p>
      ) : null}
      {view.resource === null ? (
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
