import 'server-only';
import type { Database } from '@/lib/db';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { createCache, cachePerOwner } from '@/lib/cache';
import { readPortfolioRooms, readPortfolioStates, readPortfolioUsage, type PortfolioState, type PortfolioWindow } from '@/lib/mirror/store';
import { readBookingRulesOf } from '@/lib/systems/booking-rules';
import type { SystemPublic } from '@/lib/systems/schemas';
import type { WeekScheduleInput } from '@/lib/schedule/types';
import { periodInputOf } from './load';
import { parsePeriod, defaultPeriod, type Period, type PeriodInput } from './period';
import {
  EVENING_FROM_MINUTE,
  TREND_MONTH_CHOICES,
  computeMonth,
  computeSystemFigures,
  slotCapacity,
  summarisePortfolio,
  trendMonths,
  type Capacity,
  type MonthFigures,
  type PortfolioSummary,
  type PortfolioSystem,
  type SystemFigures,
  type TrendMonths,
} from './portfolio';

/**
 * The portfolio overview's loader (issue 49): every system the viewer may see, in a few statements
 * however many there are — their states; for the systems whose figures are not kept: their rooms,
 * the period's sums per room and the trend's per month (lib/mirror/store.ts). Systems never read
 * completely are listed as not loaded yet, and never loaded by this page.
 */

export interface PortfolioInput extends PeriodInput {
  months?: string | null;
}

export interface PortfolioOverview {
  /** The period as read in the first system's zone (each system reads it in its own). */
  period: Period;
  timeZone: string;
  months: TrendMonths;
  /** The trend's months, oldest first (`yyyy-MM`). */
  monthKeys: string[];
  systems: PortfolioSystem[];
  summary: PortfolioSummary;
}

interface PortfolioDeps {
  db: Database;
  now?: () => Date;
}

/** While a window reaches past now, kept figures are reused this long (no-shows depend on now), as a report's. */
const NOW_STEP_MS = 5 * 60_000;
/** Figures kept per database: a few periods of 1,000–2,000 systems. */
const KEPT_SYSTEMS = 8_000;
/** Schedules' slot time kept per (schedule, zone, basis, span): systems share few schedules. */
const KEPT_CAPACITIES = 20_000;

interface Kept {
  figures: SystemFigures;
  months: MonthFigures[];
}

const keptOf = cachePerOwner<Database, Kept>('portfolio-systems', { max: KEPT_SYSTEMS });
const capacities = createCache<Capacity>('portfolio-capacities', { max: KEPT_CAPACITIES });

const DEFAULT_ZONE = 'Europe/Stockholm';

/** `?months=6|12` (none: 6), or a 400 saying which are possible. */
export function trendLengthOf(value: string | null | undefined): TrendMonths {
  if (value === null || value === undefined || value === '') return TREND_MONTH_CHOICES[0];
  const n = Number(value);
  if (!(TREND_MONTH_CHOICES as readonly number[]).includes(n)) {
    throw new ApiError('bad_request', msg('errors.portfolioMonths', { value: value.slice(0, 16), choices: TREND_MONTH_CHOICES.join(', ') }));
  }
  return n as TrendMonths;
}

function periodIn(timeZone: string, input: PeriodInput, nowMs: number): Period {
  const parsed = parsePeriod(input, timeZone, nowMs);
  if (!parsed.ok) throw new ApiError('bad_request', parsed.message);
  return parsed.period;
}

function capacityOf(schedule: WeekScheduleInput | null, startMs: number, endMs: number, timeZone: string, basis: SystemPublic['scheduleBasis']): Capacity {
  if (!schedule) return { slotMs: 0, eveningMs: 0, weekendMs: 0 };
  const key = `${JSON.stringify(schedule)}|${timeZone}|${basis}|${startMs}|${endMs}`;
  let held = capacities.get(key);
  if (!held) capacities.set(key, (held = slotCapacity(schedule, startMs, endMs, timeZone, basis)));
  return held;
}

/** The viewer's systems' portfolio for a period (and the trend's months). A bad period or months value is a 400, before anything is read. */
export async function loadPortfolio(deps: PortfolioDeps, systems: readonly SystemPublic[], input: PortfolioInput): Promise<PortfolioOverview> {
  const nowMs = (deps.now?.() ?? new Date()).getTime();
  const zone = systems[0]?.timeZone ?? DEFAULT_ZONE;
  const period = periodIn(zone, input, nowMs);
  const months = trendLengthOf(input.months);
  const periods = new Map(systems.map((s) => [s.deviceId, s.timeZone === zone ? period : periodIn(s.timeZone, input, nowMs)]));
  const monthKeys = trendMonths(months, zone, nowMs).map((m) => m.key);

  const ids = systems.map((s) => s.deviceId);
  const [states, rules] = await Promise.all([readPortfolioStates(deps.db, ids), readBookingRulesOf(deps.db, ids)]);
  const stateOf = new Map(states.map((s) => [s.deviceId, s]));
  const kept = keptOf(deps.db);
  const nowKey = Math.floor(nowMs / NOW_STEP_MS);
  const keyOf = (system: SystemPublic, state: PortfolioState) => {
    const p = periods.get(system.deviceId)!;
    // The trend's last month always reaches now, so every key carries the step of now.
    return [system.deviceId, state.generation, state.refreshedAtMs, state.reservationsVersion, p.startMs, p.endMs, system.timeZone, system.scheduleBasis, months, nowKey, JSON.stringify(rules.get(system.deviceId) ?? null)].join('|');
  };

  const missing = systems.filter((s) => {
    const state = stateOf.get(s.deviceId);
    return state !== undefined && !kept.has(keyOf(s, state));
  });
  if (missing.length > 0) {
    const computed = await computeSystems(deps.db, missing, stateOf, periods, months, rules, nowMs);
    for (const system of missing) {
      const state = stateOf.get(system.deviceId);
      const value = computed.get(system.deviceId);
      if (state && value) kept.set(keyOf(system, state), value);
    }
  }

  const list = systems.map((system): PortfolioSystem => {
    const head = { deviceId: system.deviceId, name: system.name, timeZone: system.timeZone, area: system.area, city: system.city };
    const state = stateOf.get(system.deviceId);
    const figures = state ? kept.get(keyOf(system, state)) : undefined;
    return figures ? { system: head, status: 'loaded', figures: figures.figures, months: figures.months } : { system: head, status: 'notLoaded' };
  });
  return { period, timeZone: zone, months, monthKeys, systems: list, summary: summarisePortfolio(list, monthKeys) };
}

/** The period's and the trend's figures of `systems`: three statements for all of them. */
async function computeSystems(
  db: Database,
  systems: readonly SystemPublic[],
  stateOf: ReadonlyMap<string, PortfolioState>,
  periods: ReadonlyMap<string, Period>,
  months: TrendMonths,
  rules: Awaited<ReturnType<typeof readBookingRulesOf>>,
  nowMs: number,
): Promise<Map<string, Kept>> {
  const generation = (s: SystemPublic) => stateOf.get(s.deviceId)!.generation;
  const monthsOf = new Map(systems.map((s) => [s.deviceId, trendMonths(months, s.timeZone, nowMs)]));
  const periodWindows: PortfolioWindow[] = systems.map((s) => {
    const p = periods.get(s.deviceId)!;
    return { deviceId: s.deviceId, generation: generation(s), timeZone: s.timeZone, bucket: 0, fromMs: p.startMs, toMs: p.endMs };
  });
  const monthWindows: PortfolioWindow[] = systems.flatMap((s) =>
    monthsOf.get(s.deviceId)!.map((m, i) => ({ deviceId: s.deviceId, generation: generation(s), timeZone: s.timeZone, bucket: i, fromMs: m.startMs, toMs: m.endMs })),
  );
  const options = { nowMs, eveningMinute: EVENING_FROM_MINUTE };
  const [rooms, periodUsage, monthUsage] = await Promise.all([
    readPortfolioRooms(db, systems.map((s) => ({ deviceId: s.deviceId, generation: generation(s) }))),
    readPortfolioUsage(db, periodWindows, { ...options, perRoom: true }),
    readPortfolioUsage(db, monthWindows, { ...options, perRoom: false }),
  ]);
  const group = <T extends { deviceId: string }>(rows: readonly T[]) => {
    const out = new Map<string, T[]>();
    for (const row of rows) {
      let list = out.get(row.deviceId);
      if (!list) out.set(row.deviceId, (list = []));
      list.push(row);
    }
    return out;
  };
  const roomsOf = group(rooms);
  const periodOf = group(periodUsage);
  const monthOf = group(monthUsage);
  const out = new Map<string, Kept>();
  for (const s of systems) {
    const p = periods.get(s.deviceId)!;
    const systemRooms = roomsOf.get(s.deviceId) ?? [];
    const systemRules = rules.get(s.deviceId) ?? null;
    const figures = computeSystemFigures(
      systemRooms.map((r) => ({ id: r.id, name: r.name, capacity: capacityOf(r.schedule, p.startMs, p.endMs, s.timeZone, s.scheduleBasis) })),
      periodOf.get(s.deviceId) ?? [],
      systemRules,
      nowMs,
    );
    // Only the rooms the generation lists count, as in a report.
    const known = new Set(systemRooms.map((r) => r.id));
    const usage = (monthOf.get(s.deviceId) ?? []).filter((u) => known.has(u.resourceId));
    const monthFigures = monthsOf.get(s.deviceId)!.map((m, i) => {
      const slotMs = systemRooms.reduce((sum, r) => sum + capacityOf(r.schedule, m.startMs, m.endMs, s.timeZone, s.scheduleBasis).slotMs, 0);
      return computeMonth(
        slotMs,
        usage.filter((u) => u.bucket === i),
        systemRules,
        nowMs,
      );
    });
    out.set(s.deviceId, { figures, months: monthFigures });
  }
  return out;
}

/** The period a page shows when the one asked for is refused: the default, in the first system's zone. */
export function fallbackPeriod(systems: readonly SystemPublic[], nowMs: number): Period {
  return defaultPeriod(systems[0]?.timeZone ?? DEFAULT_ZONE, nowMs);
}

/** `?period=&from=&to=&months=` of a URL or a page's search parameters (a repeated parameter: its first value). */
export function periodInputOfPortfolio(params: URLSearchParams | Record<string, string | string[] | undefined>): PortfolioInput {
  const months = params instanceof URLSearchParams ? params.get('months') : ([params.months].flat()[0] ?? null);
  return { ...periodInputOf(params), months };
}
