// The building view's tables: every room of a system for one day (rooms × slot times) or one week
// (rooms × days, with counts and the free slots; with `show="apartments"` also each booked slot's
// apartment). Server-rendered, no client code: each free slot is a plain link to its room's week
// grid, where booking happens. A week of 100 rooms has thousands of cells and slots, so words that
// repeat (times, counts, day names, who holds a slot) are formatted once per table, and the labels
// naming a room and a day are filled into a template formatted once per day.
import { useLocale, useTranslations } from 'next-intl';
import type { Locale } from '@/lib/i18n/config';
import { apartmentNumber, formatDayLabel, formatShortDay } from '@/lib/i18n/format';
import type { LocalDay, StatefulSlot } from '@/lib/schedule';
import { wallClock } from '@/lib/schedule/zoned';
import { slotStateText, slotTimeRange, type ClosedText, type SlotT } from '@/components/resource-week/slot-words';

/** The parts of a room the tables show (lib/views/building.ts BuildingRoom). */
export interface BuildingTableRoom {
  id: string;
  name: string;
  slots: readonly StatefulSlot[];
  free: number;
  taken: number;
}

/** What a booked slot shows (lib/views/building.ts BuildingShow): the default words, or its apartment. */
export type BuildingTableShow = 'default' | 'apartments';

interface TableProps {
  /** The ISO week key of the shown day or week (the free slots' links open the room's grid there). */
  weekKey: string;
  timeZone: string;
  rooms: readonly BuildingTableRoom[];
  /** Default 'default'. */
  show?: BuildingTableShow;
}

/** The states that hold a slot (booked, used, requested, maintenance): what the apartments mode names. */
const HELD = new Set<StatefulSlot['state']>(['booked', 'used', 'pending', 'maintenance']);

/**
 * The room's week grid, relative to the building page (`/systems/{id}/building` → `/systems/{id}/resources/…`):
 * a week of 100 rooms has thousands of these links, each written twice (HTML and the page's RSC data).
 */
const roomHref = (roomId: string, weekKey: string) => `resources/${roomId}?week=${weekKey}`;
const dayName = (day: Pick<LocalDay, 'startMs'>, timeZone: string, locale: Locale) => formatDayLabel(wallClock(day.startMs, timeZone), locale);

// Cells, chips and the sticky room column are styled in app/globals.css ([data-building]): a week of
// 100 rooms has thousands of them, and utilities repeated on each would be most of the HTML. The
// scroll box is positioned so that the sr-only (absolute) headings scroll inside it, not the page.
const TABLE = 'w-full border-collapse text-sm';
const SCROLL = 'relative max-w-full overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700';

/** Memoised words of one table render: the same few strings asked for thousands of times. */
function wordsOf(t: ReturnType<typeof useTranslations<'building'>>, ts: SlotT, closedText: ClosedText) {
  const times = new Map<string, string>();
  const counts = new Map<string, string>();
  const states = new Map<string, string>();
  const holders = new Map<string, string>();
  const time = (slot: StatefulSlot): string => {
    const key = `${slot.startLabel}|${slot.endLabel}|${slot.endsNextDay}`;
    let text = times.get(key);
    if (text === undefined) times.set(key, (text = slotTimeRange(slot, ts)));
    return text;
  };
  /**
   * Who holds a held slot, as on the door sheet: "Lgh 1203", "Underhåll 08:00–09:00", "Bokat"
   * for any holder without an apartment number. Never a resident's name: an owner named by a name
   * (a request for a resident without an apartment) reads "Booked" like any other.
   */
  const holder = (slot: StatefulSlot): string => {
    const r = slot.reservation;
    const partial = r?.coverage === 'partial' ? `${r.startLabel}|${r.endLabel}` : '';
    const apartment = slot.ownerLabel?.kind === 'apartment' ? slot.ownerLabel.apartment : '';
    const key = `${slot.state}|${partial}|${apartment}`;
    let text = holders.get(key);
    if (text === undefined) {
      if (slot.state === 'maintenance') text = r && partial ? t('whoMaintenancePartial', { start: r.startLabel, end: r.endLabel }) : t('whoMaintenance');
      else {
        text = apartment ? t('whoApartment', { apartment: apartmentNumber(apartment) }) : t('whoBooked');
        if (slot.state === 'pending') text = t('whoPending', { who: text });
      }
      holders.set(key, text);
    }
    return text;
  };
  return {
    time,
    holder,
    counts: (free: number, taken: number): string => {
      const key = `${free}|${taken}`;
      let text = counts.get(key);
      if (text === undefined) counts.set(key, (text = t('counts', { free, taken })));
      return text;
    },
    /**
     * "booked by apartment 1203", "past", …: by the fields the words depend on. A free slot that
     * cannot be booked (running now, beyond the horizon) never says "free" here: beside the green
     * "Free" links, that word means "can be booked".
     */
    state: (slot: StatefulSlot): string => {
      if (slot.state === 'free' && !slot.closed && !slot.isPast) return slot.beyondHorizon ? t('notYetBookable') : t('runningUnbooked');
      const owner = slot.ownerLabel ? JSON.stringify(slot.ownerLabel) : '';
      const partial = slot.reservation?.coverage === 'partial' ? `${slot.reservation.startLabel}-${slot.reservation.endLabel}` : '';
      const key = `${slot.state}|${slot.isPast}|${slot.beyondHorizon}|${slot.pending?.kind ?? ''}|${owner}|${partial}|${slot.closed?.reason ?? ''}`;
      let text = states.get(key);
      if (text === undefined) states.set(key, (text = slotStateText(slot, ts, closedText)));
      return text;
    },
    /** "13:00–16:00 Lgh 1203": a held slot's line in the week's cells. */
    timedHolder: (slot: StatefulSlot): string => `${time(slot)} ${holder(slot)}`,
  };
}

/** A label naming a room, formatted once with a marker and filled per room ("Free slots in {room} on Monday …"). */
const ROOM_MARK = '\u0000room\u0000';
function roomLabel(template: string): (room: string) => string {
  const at = template.indexOf(ROOM_MARK);
  if (at < 0) return () => template;
  const before = template.slice(0, at);
  const after = template.slice(at + ROOM_MARK.length);
  return (room) => before + room + after;
}

/** What both tables say with: their translators, the locale and the memoised words. */
function useTableWords() {
  const t = useTranslations('building');
  const ts = useTranslations('slot');
  const tClosed = useTranslations('closedSlot');
  const locale = useLocale();
  const closedText: ClosedText = (reason) => tClosed('label', { reason });
  return { t, locale, closedText, words: wordsOf(t, ts, closedText) };
}

interface Column {
  key: string;
  label: string;
  /** The name of a free slot's link at this time, for a room ("16:00–19:00 free in {room} on …"). */
  freeLink: (room: string) => string;
  startMinute: number;
  endMinute: number;
}

const columnKey = (slot: StatefulSlot) => `${slot.startLabel}|${slot.endLabel}|${slot.endsNextDay}`;

/** The day's slot times of all rooms, earliest first: the day table's columns. */
function columnsOf(rooms: readonly BuildingTableRoom[], time: (slot: StatefulSlot) => string, freeLink: (time: string) => string): Column[] {
  const columns = new Map<string, Column>();
  for (const room of rooms) {
    for (const slot of room.slots) {
      const key = columnKey(slot);
      if (columns.has(key)) continue;
      const label = time(slot);
      columns.set(key, { key, label, freeLink: roomLabel(freeLink(label)), startMinute: slot.startMinute, endMinute: slot.endMinute });
    }
  }
  return [...columns.values()].sort((a, b) => a.startMinute - b.startMinute || a.endMinute - b.endMinute);
}

/** What the day table's colours and counts mean (the green links, the grey words, the counts). */
export function BuildingDayLegend() {
  const t = useTranslations('building');
  return (
    <ul aria-label={t('legend')} className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-300">
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm border border-emerald-600 bg-emerald-50 dark:border-emerald-400 dark:bg-emerald-950" />
        {t('legendFree')}
      </li>
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm border border-slate-300 bg-slate-100 dark:border-slate-600 dark:bg-slate-800" />
        {t('legendOther')}
      </li>
      <li>{t('legendCounts')}</li>
    </ul>
  );
}

/** One day: rooms as rows, the day's slot times as columns; free slots link to the room's week. */
export function BuildingDayTable({ weekKey, timeZone, rooms, day, show = 'default' }: TableProps & { day: LocalDay }) {
  const { t, locale, closedText, words } = useTableWords();
  // The apartments mode: a held slot says only who holds it (a closure still says so after it).
  const heldText = (slot: StatefulSlot) => {
    if (show !== 'apartments' || !HELD.has(slot.state)) return words.state(slot);
    return slot.closed ? `${words.holder(slot)}; ${closedText(slot.closed.reason)}` : words.holder(slot);
  };
  const date = dayName(day, timeZone, locale);
  const columns = columnsOf(rooms, words.time, (time) => t('freeSlotLink', { room: ROOM_MARK, day: date, time }));
  const freeWord = t('free');
  return (
    <div className={SCROLL}>
      <table className={TABLE} data-building="day">
        <caption className="sr-only">{t('dayCaption', { day: date })}</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            <th scope="col">{t('roomColumn')}</th>
            {columns.map((c) => (
              <th key={c.key} scope="col">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rooms.map((room) => {
            const href = roomHref(room.id, weekKey);
            const byColumn = new Map<string, StatefulSlot[]>();
            for (const slot of room.slots) {
              const key = columnKey(slot);
              const list = byColumn.get(key);
              if (list) list.push(slot);
              else byColumn.set(key, [slot]);
            }
            return (
              <tr key={room.id}>
                <th scope="row">
                  <a href={href} className="room">
                    {room.name}
                  </a>
                  <span className="counts">{words.counts(room.free, room.taken)}</span>
                </th>
                {columns.map((c) => {
                  const here = byColumn.get(c.key);
                  return (
                    <td key={c.key}>
                      {/* A room without a slot at this time: an empty cell. */}
                      {here?.map((slot) =>
                          slot.bookable ? (
                            <a key={slot.startMs} href={href} data-state="free" aria-label={c.freeLink(room.name)}>
                              {freeWord}
                            </a>
                          ) : (
                            <span key={slot.startMs} data-state={slot.state}>
                              {heldText(slot)}
                            </span>
                          ),
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

/**
 * One week: rooms as rows, days as columns; each cell counts the free and taken slots and lists the
 * free ones, each a link named by its time inside a list named by the room and the day. With
 * `show="apartments"`, a line per held slot under them names its time and holder ("13:00–16:00 Lgh 1203"),
 * read in the cell's context (the room's row, the day's column).
 */
export function BuildingWeekTable({ weekKey, timeZone, rooms, days, weekLabel, show = 'default' }: TableProps & { days: readonly LocalDay[]; weekLabel: string }) {
  const { t, locale, closedText, words } = useTableWords();
  const apartments = show === 'apartments';
  // 700 cells name their room and day: one formatted template per day, the room filled in per cell.
  const names = days.map((d) => {
    const long = dayName(d, timeZone, locale);
    return {
      date: d.date,
      short: formatShortDay(wallClock(d.startMs, timeZone), locale),
      long,
      freeList: roomLabel(t('freeList', { room: ROOM_MARK, day: long })),
    };
  });
  const column = new Map(days.map((d, i) => [d.date, i]));
  const noSlots = t('noSlots');
  return (
    <div className={SCROLL}>
      <table className={TABLE} data-building="">
        <caption className="sr-only">{apartments ? t('weekCaptionApartments', { week: weekLabel }) : t('weekCaption', { week: weekLabel })}</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            <th scope="col">{t('roomColumn')}</th>
            {names.map((d) => (
              <th key={d.date} scope="col">
                <span aria-hidden="true">{d.short}</span>
                <span className="sr-only">{d.long}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rooms.map((room) => {
            const href = roomHref(room.id, weekKey);
            // The room's slots by day, in one pass (the slots come earliest first).
            const cells = names.map(() => ({ slots: 0, taken: 0, free: [] as StatefulSlot[], held: [] as StatefulSlot[], closedReason: null as string | null }));
            for (const s of room.slots) {
              const index = column.get(s.date);
              if (index === undefined) continue;
              const cell = cells[index]!;
              cell.slots += 1;
              if (s.closed && cell.closedReason === null) cell.closedReason = s.closed.reason;
              if (s.bookable) cell.free.push(s);
              else if (s.state !== 'free' && s.state !== 'past') cell.taken += 1;
              if (apartments && HELD.has(s.state)) cell.held.push(s);
            }
            return (
              <tr key={room.id}>
                <th scope="row">
                  <a href={href} className="room">
                    {room.name}
                  </a>
                  <span className="counts">{words.counts(room.free, room.taken)}</span>
                </th>
                {names.map((d, i) => {
                  const { slots, taken, free, held, closedReason } = cells[i]!;
                  return (
                    <td key={i}>
                      <span className="counts">{slots === 0 ? noSlots : words.counts(free.length, taken)}</span>
                      {closedReason !== null ? <span className="closed">{closedText(closedReason)}</span> : null}
                      {free.length > 0 ? (
                        <ul aria-label={d.freeList(room.name)}>
                          {/* Short keys: each is written into the page's RSC data, thousands of times. */}
                          {free.map((slot, k) => (
                            <li key={k}>
                              <a href={href}>{words.time(slot)}</a>
                            </li>
                          ))}
                        </ul>
                      ) : null}
                      {/* One text node for all of them, a line each (CSS pre-line): an element per slot would double the page. */}
                      {held.length > 0 ? <span className="held">{held.map(words.timedHolder).join('\n')}</span> : null}
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
