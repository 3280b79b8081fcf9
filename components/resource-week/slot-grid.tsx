'use client';

import { type CSSProperties, type KeyboardEvent, useCallback, useId, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslations } from 'next-intl';
import { formatDayTime } from '@/lib/i18n/format';
import type { SlotState, StatefulSlot, WeekInfo } from '@/lib/schedule';
import { mutedTextClass } from '@/components/ui/styles';
import { type GridPosition, isGridKey, moveInGrid } from './slot-grid-nav';
import { type GridColumn, defaultActiveSlotId, defaultPhoneDay, slotGridLayout, slotVisibleState } from './slot-grid-layout';
import { dayHeading, ownerText, useSlotWords } from './slot-words';

export interface SlotGridProps {
  /** The week shown (days become columns, in the system's time zone). */
  week: WeekInfo;
  /** That week's slots with their states (overlayReservations). */
  slots: readonly StatefulSlot[];
  /** The current instant (epoch ms), to mark today. */
  now: number;
  /** Accessible name of the grid region, unique on the page, e.g. "Laundry room 1, week 48". */
  label: string;
  /** Called when a slot is activated (click, Enter or Space). */
  onOpen?: (slot: StatefulSlot) => void;
  /** "Bookable until" (epoch ms): the end of the room's last slot within its horizons, shown above the grid. */
  horizonEnd?: number | null;
  /** The slot that gets focus first; defaults to the running or next slot. */
  initialSlotId?: string;
  /** Heading level of the day headings (default 3). */
  dayHeadingLevel?: 2 | 3 | 4;
  /** Vertical scale of the side-by-side layout. */
  pxPerMinute?: number;
  /** The service lists no schedule for the room: `slots` are its bookings at their own times, and the grid says why there is nothing to book. */
  noListedSchedule?: boolean;
}

const BASE = 'relative flex h-full w-full flex-col items-start overflow-hidden rounded-md px-2 py-1 text-left text-xs leading-tight';

/** State styles: each state also differs in border style and words, not in colour alone. */
const STATE_CLASSES: Record<SlotState, string> = {
  free: 'border border-dashed border-emerald-700 bg-emerald-50 text-emerald-950 hover:bg-emerald-100 dark:border-emerald-400 dark:bg-emerald-950 dark:text-emerald-50 dark:hover:bg-emerald-900',
  booked: 'border border-solid border-brand-700 bg-brand-600 text-white hover:bg-brand-700 dark:border-blue-300 dark:bg-blue-800 dark:text-white dark:hover:bg-blue-700',
  used: 'border border-solid border-slate-500 bg-slate-200 text-slate-900 hover:bg-slate-300 dark:border-slate-400 dark:bg-slate-700 dark:text-slate-50 dark:hover:bg-slate-600',
  maintenance: 'border-2 border-double border-amber-700 bg-amber-100 pl-3 text-amber-950 hover:bg-amber-200 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50 dark:hover:bg-amber-900',
  pending:
    'border-2 border-dashed border-violet-700 bg-violet-50 text-violet-950 hover:bg-violet-100 dark:border-violet-300 dark:bg-violet-950 dark:text-violet-50 dark:hover:bg-violet-900',
  past: 'border border-dotted border-slate-300 bg-slate-50 text-slate-600 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-400 dark:hover:bg-slate-800',
  // Being checked (a first load): neutral, and never looks like free.
  loading: 'cursor-wait border-2 border-dotted border-slate-400 bg-slate-100 text-slate-700 dark:border-slate-500 dark:bg-slate-800 dark:text-slate-200',
};
/** Booked/maintenance slots that have ended lose their strong colour; a booking says "Was booked". */
const ENDED_CLASSES =
  'border border-solid border-slate-400 bg-slate-100 text-slate-700 hover:bg-slate-200 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-300 dark:hover:bg-slate-800';
const BEYOND_HORIZON_CLASSES =
  'border border-dashed border-slate-400 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-500 dark:bg-slate-950 dark:text-slate-300 dark:hover:bg-slate-900';

export function slotClassName(slot: StatefulSlot): string {
  // A closed room's free slot looks like one that cannot be booked yet.
  if (slot.closed && slot.state === 'free' && !slot.isPast) return `${BASE} ${BEYOND_HORIZON_CLASSES}`;
  if (slot.state === 'free' && slot.beyondHorizon && !slot.isPast) return `${BASE} ${BEYOND_HORIZON_CLASSES}`;
  // Used slots keep their own style; other ended ones (a booking never marked used, maintenance) fade.
  if (slot.isPast && slot.state !== 'past' && slot.state !== 'used') return `${BASE} ${ENDED_CLASSES}`;
  return `${BASE} ${STATE_CLASSES[slot.state]}`;
}

/**
 * The weekly slot grid: days as columns (one day at a time below the `sm` breakpoint),
 * slots placed by their local times, today marked. Each slot is a button named like
 * "Monday 24 November, 07:00–10:00, free"; one Tab stop for the whole grid (roving tabindex),
 * arrow keys move between slots, Enter or Space opens one. Below `sm` one day shows at a time,
 * chosen with day buttons (a week of stacked days was ~2,700 px on a phone); arrow keys still move
 * across days and bring the day they reach into view.
 */
export function SlotGrid({
  week,
  slots,
  now,
  label,
  onOpen,
  horizonEnd,
  initialSlotId,
  dayHeadingLevel = 3,
  pxPerMinute,
  noListedSchedule = false,
}: SlotGridProps) {
  const layout = useMemo(() => slotGridLayout(week, slots, now, pxPerMinute), [week, slots, now, pxPerMinute]);
  const [chosenId, setChosenId] = useState<string | undefined>(initialSlotId);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const activeId = chosenId !== undefined && slots.some((s) => s.id === chosenId) ? chosenId : defaultActiveSlotId(slots);
  const columnsOfStarts = useMemo(() => layout.columns.map((c) => c.slots.map((p) => p.slot.startMinute)), [layout]);
  const Heading = `h${dayHeadingLevel}` as 'h3';
  const [phoneDay, setPhoneDay] = useState(() => defaultPhoneDay(layout.columns, activeId));
  const switcherId = useId();
  const t = useTranslations('grid');
  const words = useSlotWords();
  const { locale } = words;

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      if (!isGridKey(event.key) || event.altKey || event.metaKey || event.ctrlKey) return;
      const id = (event.target as HTMLElement).dataset.slotId;
      const from = findPosition(layout.columns, id);
      if (!from) return;
      // Arrow keys would scroll the page otherwise, even at an edge.
      event.preventDefault();
      const to = moveInGrid(columnsOfStarts, from, event.key);
      const target = to ? layout.columns[to.day]?.slots[to.index]?.slot : undefined;
      if (!target) return;
      // On a phone the target's day may be hidden: show it before moving focus there.
      flushSync(() => {
        setChosenId(target.id);
        if (to) setPhoneDay(to.day);
      });
      buttons.current.get(target.id)?.focus();
    },
    [layout, columnsOfStarts],
  );

  const gridStyle = { '--grid-h': `${layout.heightPx}px` } as CSSProperties;

  return (
    <div className="flex flex-col gap-3">
      <div role="group" aria-labelledby={switcherId} className="flex flex-col gap-1 sm:hidden">
        <p id={switcherId} className="text-sm font-medium">
          {t('dayShown')}
        </p>
        <div className="grid grid-cols-7 gap-1">
          {layout.columns.map((column, index) => (
            <button
              key={column.day.date}
              type="button"
              aria-pressed={index === phoneDay}
              onClick={() => {
                setPhoneDay(index);
                // The grid's one Tab stop moves to the day shown, so Tab still reaches a slot.
                const first = column.slots[0];
                if (first) setChosenId(first.slot.id);
              }}
              className={`flex min-h-11 flex-col items-center justify-center rounded-md border text-xs leading-tight focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:focus-visible:outline-blue-300 ${
                index === phoneDay
                  ? 'border-brand-700 bg-brand-600 font-semibold text-white dark:border-blue-300 dark:bg-blue-800'
                  : 'border-slate-300 bg-white text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100 dark:hover:bg-slate-800'
              } ${column.isToday ? 'underline decoration-2 underline-offset-2' : ''}`}
            >
              {dayHeading(column.day, week.timeZone, locale).short}
              {column.isToday ? <span className="sr-only">{t('todaySuffix')}</span> : null}
            </button>
          ))}
        </div>
      </div>
      <section aria-label={label} className="flex flex-col gap-3">
        {/* A past week has nothing left to book: the horizon would only confuse there. */}
        {horizonEnd != null && week.endMs > now && (
          <p className={mutedTextClass}>
            {t.rich('horizon', {
              when: formatDayTime(horizonEnd, week.timeZone, locale),
              strong: (chunks) => <strong className="font-semibold">{chunks}</strong>,
            })}
          </p>
        )}
        {noListedSchedule ? (
          <p role="status" className="rounded-lg border border-amber-400 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50">
            {t('noListedSchedule')}
          </p>
        ) : (
          slots.length === 0 && <p className={mutedTextClass}>{t('noSlotsWeek')}</p>
        )}
        <div
          className="flex flex-col gap-4 sm:grid sm:grid-cols-[2.75rem_repeat(7,minmax(0,1fr))] sm:gap-x-1 sm:gap-y-0"
          style={gridStyle}
          onKeyDown={onKeyDown}
        >
          <div aria-hidden="true" className="hidden sm:block">
            <div className="h-12" />
            <div className="relative h-[var(--grid-h)]">
              {layout.hours.map((hour) => (
                <span
                  key={hour.minute}
                  className="absolute right-1 -translate-y-1/2 text-[0.6875rem] tabular-nums text-slate-600 dark:text-slate-400"
                  style={{ top: hour.top }}
                >
                  {hour.label}
                </span>
              ))}
              {layout.breaks.map((b) => (
                <span key={b.top} className="absolute right-1 text-xs leading-5 text-slate-600 dark:text-slate-400" style={{ top: b.top }}>
                  ⋮
                </span>
              ))}
            </div>
          </div>
          {layout.columns.map((column, index) => {
            const headingId = `slot-grid-${week.key}-${column.day.date}`;
            const heading = dayHeading(column.day, week.timeZone, locale);
            return (
              <div
                key={column.day.date}
                role="group"
                aria-labelledby={headingId}
                className={`${index === phoneDay ? 'flex' : 'hidden'} min-w-0 flex-col rounded-lg sm:flex ${column.isToday ? 'bg-brand-50 ring-2 ring-brand-600 dark:bg-slate-900 dark:ring-blue-400' : ''}`}
              >
                <Heading
                  id={headingId}
                  aria-current={column.isToday ? 'date' : undefined}
                  className="flex h-auto items-center gap-2 px-1 py-1 text-sm font-semibold sm:h-12 sm:flex-col sm:items-start sm:justify-center sm:gap-0"
                >
                  <span className="sm:hidden">{heading.long}</span>
                  <span className="hidden sm:inline">{heading.short}</span>
                  {column.isToday && (
                    <span className="rounded bg-brand-700 px-1.5 py-0.5 text-[0.6875rem] font-semibold uppercase tracking-wide text-white dark:bg-blue-300 dark:text-slate-950">
                      {t('today')}
                    </span>
                  )}
                </Heading>
                {column.slots.length === 0 ? (
                  <p className="px-1 pb-2 text-xs text-slate-600 sm:hidden dark:text-slate-400">{t('noSlotsDay')}</p>
                ) : null}
                <ul className="flex flex-col gap-1 px-1 pb-1 sm:relative sm:block sm:h-[var(--grid-h)] sm:p-0">
                  {layout.breaks.map((b) => (
                    <li
                      key={`break-${b.top}`}
                      aria-hidden="true"
                      className="hidden sm:absolute sm:inset-x-0.5 sm:block sm:h-5 sm:border-y sm:border-dashed sm:border-slate-300 dark:sm:border-slate-700"
                      style={{ top: b.top }}
                    />
                  ))}
                  {column.slots.map(({ slot, top, height }) => {
                    const visible = slotVisibleState(slot);
                    // Nothing to open on a slot being checked: no details yet, and never a booking.
                    const checking = slot.state === 'loading';
                    const style = { '--top': `${top}px`, '--h': `${height}px` } as CSSProperties;
                    return (
                      <li key={slot.id} style={style} className="min-h-11 sm:absolute sm:inset-x-0.5 sm:top-[var(--top)] sm:h-[var(--h)] sm:min-h-0">
                        <button
                          type="button"
                          ref={(node) => {
                            if (node) buttons.current.set(slot.id, node);
                            else buttons.current.delete(slot.id);
                          }}
                          data-slot-id={slot.id}
                          data-state={slot.state}
                          tabIndex={slot.id === activeId ? 0 : -1}
                          aria-label={words.accessibleName(slot)}
                          title={words.ruleText(slot)}
                          aria-disabled={checking || undefined}
                          onClick={() => {
                            setChosenId(slot.id);
                            if (!checking) onOpen?.(slot);
                          }}
                          className={`${slotClassName(slot)} min-h-11 sm:min-h-0 ${slot.isCurrent ? 'ring-2 ring-orange-600 ring-offset-1 dark:ring-orange-400 dark:ring-offset-slate-950' : ''} focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:focus-visible:outline-blue-300`}
                        >
                          {checking && (
                            <span aria-hidden="true" className="absolute right-1.5 top-1.5 size-3 animate-spin rounded-full border-2 border-slate-500 border-t-transparent motion-reduce:animate-none dark:border-slate-300 dark:border-t-transparent" />
                          )}
                          {slot.state === 'maintenance' && (
                            <span
                              aria-hidden="true"
                              className="absolute inset-y-0 left-0 w-1.5 bg-[repeating-linear-gradient(45deg,#b45309_0_3px,transparent_3px_6px)] dark:bg-[repeating-linear-gradient(45deg,#fbbf24_0_3px,transparent_3px_6px)]"
                            />
                          )}
                          <span className="font-semibold tabular-nums">{words.timeRange(slot)}</span>
                          {slot.closed && (slot.state === 'free' || slot.state === 'past') ? (
                            <span className="w-full truncate font-medium">{words.closedText(slot.closed.reason)}</span>
                          ) : (
                            <>
                              <span>
                                {words.t(`state.${visible.title}`)}
                                {slot.isCurrent && <span className="font-semibold uppercase"> · {t('now')}</span>}
                              </span>
                              {visible.detail && <span className="w-full truncate">{typeof visible.detail === 'string' ? visible.detail : ownerText(visible.detail, words.t)}</span>}
                              {slot.closed && <span className="w-full truncate font-medium">{words.closedText(slot.closed.reason)}</span>}
                            </>
                          )}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </div>
            );
          })}
        </div>
      </section>
    </div>
  );
}

function findPosition(columns: readonly GridColumn[], id: string | undefined): GridPosition | null {
  for (let day = 0; day < columns.length; day++) {
    const index = columns[day]!.slots.findIndex((p) => p.slot.id === id);
    if (index >= 0) return { day, index };
  }
  return null;
}
