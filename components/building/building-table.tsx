// The building view's tables: every room of a system for one day (rooms × slot times) or one week
// (rooms × days, with counts and the free slots). Server-rendered, no client code: each free slot is
// a plain link to its room's week grid, where booking happens.
import { useLocale, useTranslations } from 'next-intl';
import type { Locale } from '@/i18n/config';
import { formatDayLabel, formatShortDay } from '@/lib/i18n/format';
import type { LocalDay, StatefulSlot } from '@/lib/schedule';
import { wallClock } from '@/lib/schedule/zoned';
import { slotStateText, slotTimeRange } from '@/components/resource-week/slot-words';

/** The parts of a room the tables show (lib/views/building.ts BuildingRoom). */
export interface BuildingTableRoom {
  id: string;
  name: string;
  slots: readonly StatefulSlot[];
  free: number;
  taken: number;
}

interface TableProps {
  deviceId: string;
  /** The ISO week key of the shown day or week (the free slots' links open the room's grid there). */
  weekKey: string;
  timeZone: string;
  rooms: readonly BuildingTableRoom[];
}

const roomHref = (deviceId: string, roomId: string, weekKey: string) => `/systems/${deviceId}/resources/${roomId}?week=${weekKey}`;
const dayName = (day: Pick<LocalDay, 'startMs'>, timeZone: string, locale: Locale) => formatDayLabel(wallClock(day.startMs + 1, timeZone), locale);

const CHIP = 'inline-flex min-h-8 items-center rounded-md border px-2 py-1 text-xs whitespace-nowrap';
const FREE_CHIP = `${CHIP} border-emerald-600 bg-emerald-50 font-medium text-emerald-900 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-emerald-400 dark:bg-emerald-950 dark:text-emerald-100`;
const TAKEN_CHIP = `${CHIP} border-slate-300 bg-slate-100 text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100`;
const STICKY = 'sticky left-0 z-10 bg-white text-left align-top font-medium dark:bg-slate-900';

/** A slot as a chip: a link when it may be booked, else its state in words ("booked by apartment 1203"). */
function SlotChip({ slot, room, href, showTime }: { slot: StatefulSlot; room: string; href: string; showTime: boolean }) {
  const t = useTranslations('building');
  const ts = useTranslations('slot');
  const locale = useLocale();
  const time = slotTimeRange(slot, ts);
  if (slot.bookable) {
    return (
      <a href={href} className={FREE_CHIP} aria-label={t('freeSlotLink', { room, day: formatDayLabel(wallClock(slot.startMs, slot.timeZone), locale), time })} data-state="free">
        {showTime ? time : t('free')}
      </a>
    );
  }
  const words = slotStateText(slot, ts);
  return (
    <span className={TAKEN_CHIP} data-state={slot.state}>
      {showTime ? `${time} ${words}` : words}
    </span>
  );
}

interface Column {
  key: string;
  label: string;
  startMinute: number;
  endMinute: number;
}

/** The day's slot times of all rooms, earliest first: the day table's columns. */
function columnsOf(rooms: readonly BuildingTableRoom[], ts: ReturnType<typeof useTranslations<'slot'>>): Column[] {
  const columns = new Map<string, Column>();
  for (const room of rooms) {
    for (const slot of room.slots) {
      const key = `${slot.startLabel}|${slot.endLabel}|${slot.endsNextDay}`;
      if (!columns.has(key)) columns.set(key, { key, label: slotTimeRange(slot, ts), startMinute: slot.startMinute, endMinute: slot.endMinute });
    }
  }
  return [...columns.values()].sort((a, b) => a.startMinute - b.startMinute || a.endMinute - b.endMinute);
}

/** One day: rooms as rows, the day's slot times as columns. */
export function BuildingDayTable({ deviceId, weekKey, timeZone, rooms, day }: TableProps & { day: LocalDay }) {
  const t = useTranslations('building');
  const ts = useTranslations('slot');
  const locale = useLocale();
  const columns = columnsOf(rooms, ts);
  return (
    <div className="max-w-full overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700" data-testid="building-scroll">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{t('dayCaption', { day: dayName(day, timeZone, locale) })}</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            <th scope="col" className={`${STICKY} px-3 py-2`}>
              {t('roomColumn')}
            </th>
            {columns.map((c) => (
              <th key={c.key} scope="col" className="px-2 py-2 text-left font-medium whitespace-nowrap">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rooms.map((room) => {
            const href = roomHref(deviceId, room.id, weekKey);
            return (
              <tr key={room.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <th scope="row" className={`${STICKY} max-w-40 px-3 py-2`}>
                  <a href={href} className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
                    {room.name}
                  </a>
                  <span className="block text-xs font-normal text-slate-700 dark:text-slate-300">{t('counts', { free: room.free, taken: room.taken })}</span>
                </th>
                {columns.map((c) => {
                  const here = room.slots.filter((s) => `${s.startLabel}|${s.endLabel}|${s.endsNextDay}` === c.key);
                  return (
                    <td key={c.key} className="px-2 py-2 align-top">
                      {here.length === 0 ? (
                        <span className="text-xs text-slate-600 dark:text-slate-400">{t('noSlot')}</span>
                      ) : (
                        <span className="flex flex-col gap-1">
                          {here.map((slot) => (
                            <SlotChip key={slot.id} slot={slot} room={room.name} href={href} showTime={false} />
                          ))}
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** One week: rooms as rows, days as columns; each cell counts free and taken slots and lists the free ones. */
export function BuildingWeekTable({ deviceId, weekKey, timeZone, rooms, days, weekLabel }: TableProps & { days: readonly LocalDay[]; weekLabel: string }) {
  const t = useTranslations('building');
  const locale = useLocale();
  return (
    <div className="max-w-full overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700" data-testid="building-scroll">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{t('weekCaption', { week: weekLabel })}</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            <th scope="col" className={`${STICKY} px-3 py-2`}>
              {t('roomColumn')}
            </th>
            {days.map((d) => (
              <th key={d.date} scope="col" className="px-2 py-2 text-left font-medium whitespace-nowrap">
                <span aria-hidden="true">{formatShortDay(wallClock(d.startMs + 1, timeZone), locale)}</span>
                <span className="sr-only">{dayName(d, timeZone, locale)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rooms.map((room) => {
            const href = roomHref(deviceId, room.id, weekKey);
            return (
              <tr key={room.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <th scope="row" className={`${STICKY} max-w-40 px-3 py-2`}>
                  <a href={href} className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
                    {room.name}
                  </a>
                  <span className="block text-xs font-normal text-slate-700 dark:text-slate-300">{t('counts', { free: room.free, taken: room.taken })}</span>
                </th>
                {days.map((d) => {
                  const here = room.slots.filter((s) => s.date === d.date);
                  let free = 0;
                  let taken = 0;
                  for (const s of here) {
                    if (s.bookable) free += 1;
                    else if (s.state !== 'free' && s.state !== 'past') taken += 1;
                  }
                  return (
                    <td key={d.date} className="px-2 py-2 align-top">
                      <span className="block text-xs text-slate-700 dark:text-slate-300">{here.length === 0 ? t('noSlots') : t('counts', { free, taken })}</span>
                      {free > 0 ? (
                        <ul className="mt-1 flex flex-col gap-1" aria-label={t('freeList', { room: room.name, day: dayName(d, timeZone, locale) })}>
                          {here
                            .filter((s) => s.bookable)
                            .map((slot) => (
                              <li key={slot.id}>
                                <SlotChip slot={slot} room={room.name} href={href} showTime />
                              </li>
                            ))}
                        </ul>
                      ) : null}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
