// The building view's page body: the day/week switch, previous/next links, the room and "only free"
// filters (a plain GET form), and the table. No client code: every control is a link or a form.
import { useLocale, useTranslations } from 'next-intl';
import { formatDayLabel } from '@/lib/i18n/format';
import { wallClock } from '@/lib/schedule/zoned';
import type { BuildingMode, BuildingParamProblem, BuildingShow } from '@/lib/views/building';
import type { LocalDay, WeekInfo } from '@/lib/schedule';
import { weekLabel } from '@/components/resource-week/slot-words';
import { BuildingDayLegend, BuildingDayTable, BuildingWeekTable, type BuildingTableRoom } from './building-table';

export interface BuildingBodyProps {
  timeZone: string;
  mode: BuildingMode;
  day: LocalDay;
  week: WeekInfo;
  nav: { previous: string; next: string; today: string };
  allRooms: readonly { id: string; name: string }[];
  rooms: readonly BuildingTableRoom[];
  loading: boolean;
  onlyFree: boolean;
  roomId: string | undefined;
  /** What booked slots show (`?show=apartments`: the apartment holding each). */
  show: BuildingShow;
  problems: readonly BuildingParamProblem[];
}

const LINK = 'inline-flex min-h-9 items-center rounded-md border border-slate-300 px-3 py-1 text-sm text-blue-700 underline-offset-2 hover:underline dark:border-slate-600 dark:text-blue-300';
const CURRENT = 'inline-flex min-h-9 items-center rounded-md border border-slate-800 bg-slate-800 px-3 py-1 text-sm font-medium text-white dark:border-slate-200 dark:bg-slate-200 dark:text-slate-900';

type ViewState = { day: string; mode: BuildingMode; onlyFree: boolean; roomId: string | undefined; show: BuildingShow };

/** The address of the view with some of its parameters changed (the filters and what it shows kept). */
function hrefOf(base: ViewState, change: Partial<Pick<ViewState, 'day' | 'mode' | 'show'>>): string {
  const params = new URLSearchParams({ day: change.day ?? base.day, view: change.mode ?? base.mode });
  if (base.onlyFree) params.set('free', '1');
  if (base.roomId) params.set('room', base.roomId);
  if ((change.show ?? base.show) === 'apartments') params.set('show', 'apartments');
  return `?${params.toString()}`;
}

function ProblemAlert({ problem }: { problem: BuildingParamProblem }) {
  const t = useTranslations('building');
  return (
    <p role="alert" className="rounded-lg border border-amber-400 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50">
      {t.rich('invalid', {
        reason: t(`invalidReason.${problem.kind}`, { input: problem.input }),
        strong: (chunks) => <strong className="font-semibold">{chunks}</strong>,
      })}
    </p>
  );
}

export function BuildingBody(props: BuildingBodyProps) {
  const { timeZone, mode, day, week, nav, allRooms, rooms, loading, onlyFree, roomId, show, problems } = props;
  const t = useTranslations('building');
  const tg = useTranslations('grid');
  const locale = useLocale();
  const base: ViewState = { day: day.date, mode, onlyFree, roomId, show };
  const label = mode === 'week' ? weekLabel(week, tg, locale) : formatDayLabel(wallClock(day.startMs, timeZone), locale);
  const free = rooms.reduce((sum, r) => sum + r.free, 0);
  return (
    <div className="flex min-w-0 flex-col gap-4">
      {problems.map((p) => (
        <ProblemAlert key={p.kind} problem={p} />
      ))}
      <div className="flex flex-wrap items-center gap-2">
        <nav aria-label={t('viewNav')} className="flex gap-1">
          <a href={hrefOf(base, { mode: 'day' })} className={mode === 'day' ? CURRENT : LINK} aria-current={mode === 'day' ? 'page' : undefined}>
            {t('viewDay')}
          </a>
          <a href={hrefOf(base, { mode: 'week' })} className={mode === 'week' ? CURRENT : LINK} aria-current={mode === 'week' ? 'page' : undefined}>
            {t('viewWeek')}
          </a>
        </nav>
        <nav aria-label={t('periodNav')} className="flex flex-wrap gap-1">
          <a href={hrefOf(base, { day: nav.previous })} className={LINK}>
            {mode === 'week' ? t('previousWeek') : t('previousDay')}
          </a>
          <a href={hrefOf(base, { day: nav.today })} className={LINK}>
            {t('today')}
          </a>
          <a href={hrefOf(base, { day: nav.next })} className={LINK}>
            {mode === 'week' ? t('nextWeek') : t('nextDay')}
          </a>
        </nav>
        {/* What a booked slot shows: a link each way, so it works without JavaScript and is kept in the address. */}
        <nav aria-label={t('showNav')} className="flex gap-1">
          <a href={hrefOf(base, { show: 'default' })} className={show === 'default' ? CURRENT : LINK} aria-current={show === 'default' ? 'true' : undefined}>
            {t('showDefault', { mode })}
          </a>
          <a href={hrefOf(base, { show: 'apartments' })} className={show === 'apartments' ? CURRENT : LINK} aria-current={show === 'apartments' ? 'true' : undefined}>
            {t('showApartments')}
          </a>
        </nav>
      </div>
      <h2 className="text-lg font-semibold">{label}</h2>
      <form method="get" aria-label={t('filters')} className="flex flex-wrap items-end gap-3 text-sm">
        <input type="hidden" name="day" value={day.date} />
        <input type="hidden" name="view" value={mode} />
        {show === 'apartments' ? <input type="hidden" name="show" value="apartments" /> : null}
        <label className="flex min-w-0 flex-col gap-1">
          <span>{t('roomLabel')}</span>
          <select name="room" defaultValue={roomId ?? ''} className="max-w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1.5 dark:border-slate-600 dark:bg-slate-900">
            <option value="">{t('allRooms')}</option>
            {allRooms.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 py-1.5">
          <input type="checkbox" name="free" value="1" defaultChecked={onlyFree} className="h-4 w-4" />
          <span>{t('onlyFree')}</span>
        </label>
        <button type="submit" className="min-h-9 rounded-md bg-blue-700 px-4 py-1.5 font-medium text-white hover:bg-blue-800 dark:bg-blue-500 dark:text-slate-950">
          {t('show')}
        </button>
      </form>
      {loading ? (
        <p role="status" className="text-sm">
          {t('loading')}
        </p>
      ) : allRooms.length === 0 ? (
        <p className="text-sm">{t('noRooms')}</p>
      ) : rooms.length === 0 ? (
        <p className="text-sm">{t('noFreeRooms', { mode })}</p>
      ) : (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-300">{t('summary', { rooms: rooms.length, free })}</p>
          {mode === 'week' ? (
            <BuildingWeekTable weekKey={week.key} timeZone={timeZone} rooms={rooms} days={week.days} weekLabel={label} show={show} />
          ) : (
            <>
              <BuildingDayLegend />
              <BuildingDayTable weekKey={week.key} timeZone={timeZone} rooms={rooms} day={day} show={show} />
            </>
          )}
        </>
      )}
    </div>
  );
}
