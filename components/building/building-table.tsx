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

// Cells, chips and the sticky room column are styled in app/globals.css ([data-building]): a week of
// 100 rooms has thousands of them, and utilities repeated on each would be most of the HTML. The
// scroll box is positioned so that the sr-only (absolute) headings scroll inside it, not the page.
const TABLE = 'w-full border-collapse text-sm';
const SCROLL = 'relative max-w-full overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700';

/** A slot as a chip: a link when it may be booked, else its state in words ("booked by apartment 1203"). */
function SlotChip({ slot, room, href, showTime }: { slot: StatefulSlot; room: string; href: string; showTime: boolean }) {
  const t = useTranslations('building');
  const ts = useTranslations('slot');
  const locale = useLocale();
  const time = slotTimeRange(slot, ts);
  if (slot.bookable) {
    return (
      <a href={href} aria-label={t('freeSlotLink', { room, day: formatDayLabel(wallClock(slot.startMs, slot.timeZone), locale), time })} data-state="free">
        {showTime ? time : t('free')}
      </a>
    );
  }
  const words = slotStateText(slot, ts);
  return (
    <span data-state={slot.state}>
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
    <div className={SCROLL}>
      <table className={TABLE} data-building="">
        <caption className="sr-only">{t('dayCaption', { day: dayName(day, timeZone, locale) })}</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            <th scope="col">
              {t('roomColumn')}
            </th>
            {columns.map((c) => (
              <th key={c.key} scope="col">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rooms.map((room) => {
            const href = roomHref(deviceId, room.id, weekKey);
            return (
              <tr key={room.id}>
                <th scope="row">
                  <a href={href} className="room">
                    {room.name}
                  </a>
                  <span className="counts">{t('counts', { free: room.free, taken: room.taken })}</span>
                </th>
                {columns.map((c) => {
                  const here = room.slots.filter((s) => `${s.startLabel}|${s.endLabel}|${s.endsNextDay}` === c.key);
                  return (
                    <td key={c.key}>
                      {here.length === 0 ? (
                        <span className="counts">{t('noSlot')}</span>
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
    <div className={SCROLL}>
      <table className={TABLE} data-building="">
        <caption className="sr-only">{t('weekCaption', { week: weekLabel })}</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            <th scope="col">
              {t('roomColumn')}
            </th>
            {days.map((d) => (
              <th key={d.date} scope="col">
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
              <tr key={room.id}>
                <th scope="row">
                  <a href={href} className="room">
                    {room.name}
                  </a>
                  <span className="counts">{t('counts', { free: room.free, taken: room.taken })}</span>
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
                    <td key={d.date}>
                      <span className="counts">{here.length === 0 ? t('noSlots') : t('counts', { free, taken })}</span>
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
