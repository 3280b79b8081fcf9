import type { SqlRunner } from '@/shared/sql-runner';

/** Deterministic data presets: the same preset, seed and day give the same data. */
export type Preset = 'demo' | 'large' | 'tiny' | 'portfolio';
export const PRESETS: readonly Preset[] = ['demo', 'large', 'tiny', 'portfolio'];
/** How many systems `portfolio` holds unless told (issue 49: a customer with a thousand small systems). */
export const PORTFOLIO_SYSTEMS_DEFAULT = 1_000;
/** The most systems a `portfolio` may be asked for (the issue names customers of up to 1,700). */
export const PORTFOLIO_SYSTEMS_MAX = 5_000;

/** What shapes a preset beyond its name: `systems` is the count of `portfolio` (others have a fixed shape). */
export interface PresetOptions {
  systems?: number;
}
/** What a sandbox started without options holds (the demo, the e2e run): scripts/e2e-log-scan.ts derives its people from these. */
export const DEFAULT_PRESET: Preset = 'demo';
export const DEFAULT_SEED = 1;
export const DEFAULT_QUOTA_PER_GROUP = 2;

export type WeekSchedule = [number, number][][];

// mulberry32: small, fast, good enough for fixtures.
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** A v4-shaped UUID from 16 draws (a table and one string: a portfolio makes half a million of them). */
export function uuidFrom(next: () => number): string {
  let out = '';
  for (let i = 0; i < 16; i += 1) {
    let byte = Math.floor(next() * 256);
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    if (i === 8) byte = (byte & 0x3f) | 0x80;
    out += HEX[byte]!;
    if (i === 3 || i === 5 || i === 7 || i === 9) out += '-';
  }
  return out;
}

const everyDay = (slots: [number, number][]): WeekSchedule => Array.from({ length: 7 }, () => slots.map((s) => [...s] as [number, number]));

// UTC minutes; 06:00 UTC is 07:00 in Stockholm in winter.
export const SCHEDULES = {
  threeHour: everyDay([[360, 180], [540, 180], [720, 180], [900, 180], [1080, 180]]),
  ninetyMinute: everyDay(Array.from({ length: 10 }, (_, i) => [360 + i * 90, 90] as [number, number])),
  drying: everyDay([[360, 240], [600, 240], [840, 240], [1080, 240]]),
  // Uneven days, an empty Thursday and slots that run past midnight (Mon 21:00 → Tue 01:00).
  irregular: [
    [[360, 180], [540, 180], [1260, 240]],
    [[480, 120], [600, 120], [720, 240]],
    [[360, 90], [450, 90], [540, 90], [1200, 180]],
    [],
    [[360, 240], [600, 240]],
    [[480, 180], [660, 180]],
    [[600, 300], [1320, 180]],
  ] as WeekSchedule,
} satisfies Record<string, WeekSchedule>;
type ScheduleKind = keyof typeof SCHEDULES;

const FIRST = ['Anna', 'Erik', 'Maria', 'Lars', 'Karin', 'Johan', 'Sara', 'Anders', 'Elin', 'Per', 'Ingrid', 'Mikael', 'Eva', 'Oskar', 'Lena', 'Ahmed', 'Fatima', 'Nils', 'Sofia', 'Björn', 'Maja', 'Hassan', 'Linnea', 'Gustav', 'Emma', 'Olof', 'Yasmin', 'Jonas', 'Astrid', 'Mehmet'];
const LAST = ['Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Olsson', 'Persson', 'Svensson', 'Gustafsson', 'Pettersson', 'Jonsson', 'Lindberg', 'Lindqvist', 'Åberg', 'Holm', 'Berg', 'Sandberg', 'Ali', 'Yilmaz', 'Nyström', 'Lund', 'Ekström', 'Hedlund', 'Öberg'];
const DOMAINS = ['example.com', 'example.org', 'example.net'];
/** The parts demo people are made of (scripts/e2e-log-scan.ts looks for any of them in logs). */
export const NAME_PARTS = { first: FIRST, last: LAST, domains: DOMAINS } as const;

export interface SeedData {
  systems: { id: string; name: string }[];
  approvals: { id: string; deviceIds: string[] }[];
  schedules: { id: string; deviceId: string; schedule: WeekSchedule }[];
  resources: { id: string; deviceId: string; name: string; description: string; timeScheduleId: string }[];
  groups: { id: string; deviceId: string; name: string; apartmentId: string; referenceId: string }[];
  users: { id: string; deviceId: string; name: string; email: string; userGroupId: string | null; excluded: string[] }[];
  reservations: {
    id: string; deviceId: string; resourceId: string; userId: string | null; ownerId: string | null;
    ownerType: 'User' | 'Group' | 'Service'; status: 'Used' | 'Unused'; startTime: string; endTime: string;
  }[];
  residents: { deviceId: string; userId: string; name: string; email: string; apartmentId: string; referenceId: string; userGroupId: string; resourceIds: string[] }[];
}

interface SystemPlan { name: string; resources: { name: string; description: string; kind: ScheduleKind }[]; apartments: number }

interface Plan { systems: SystemPlan[]; approvals: number[][]; pastDays: number; futureDays: number; occupancy: [number, number]; target?: number; residentsPerSystem: number }

/**
 * `portfolio`: many small systems, as a housing company's (issue 49): 1–3 rooms each (a laundry
 * room, often a second one or a drying room), 12–90 apartments, four weeks of history and two
 * ahead. The service gives systems no names, so neither does this preset (the admin names them);
 * they are spread over one big approval and several small ones, as a company's contracts are.
 */
function portfolioPlan(count: number, r: () => number): Plan {
  const between = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const systems = Array.from({ length: count }, (): SystemPlan => {
    const rooms = between(1, 3);
    const kind: ScheduleKind = r() < 0.25 ? 'ninetyMinute' : 'threeHour';
    const label = kind === 'threeHour' ? '3-timmarspass' : '90-minuterspass';
    const resources: SystemPlan['resources'] = [{ name: 'Tvättstuga', description: `Källarplan, ${label}`, kind }];
    if (rooms >= 2) resources.push(r() < 0.5 ? { name: 'Torkrum', description: 'Torkrum med torkskåp', kind: 'drying' } : { name: 'Tvättstuga 2', description: `Bottenplan, ${label}`, kind });
    if (rooms === 3) resources.push(resources[1]!.kind === 'drying' ? { name: 'Tvättstuga 2', description: `Bottenplan, ${label}`, kind } : { name: 'Torkrum', description: 'Torkrum med torkskåp', kind: 'drying' });
    return { name: '', apartments: between(12, 90), resources };
  });
  // About 60 % under one approval, the rest in approvals of 5–40 systems.
  const order = Array.from({ length: count }, (_, i) => i);
  const big = Math.ceil(count * 0.6);
  const approvals: number[][] = [order.slice(0, big)];
  for (let i = big; i < count; ) {
    const size = Math.min(count - i, between(5, 40));
    approvals.push(order.slice(i, i + size));
    i += size;
  }
  return { systems, approvals, pastDays: 28, futureDays: 14, occupancy: [0.3, 0.85], residentsPerSystem: 2 };
}

function plan(preset: Preset, r: () => number, options: PresetOptions): Plan {
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)]!;
  const between = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  if (preset === 'portfolio') return portfolioPlan(options.systems ?? PORTFOLIO_SYSTEMS_DEFAULT, r);
  if (preset === 'tiny') {
    const sys = (name: string): SystemPlan => ({
      name,
      apartments: 4,
      resources: [
        { name: 'Tvättstuga 1', description: 'Källarplan, 3-timmarspass', kind: 'threeHour' },
        { name: 'Tvättstuga Gården', description: 'Gårdshuset, oregelbundna pass', kind: 'irregular' },
      ],
    });
    return { systems: [sys('Testgården 1'), sys('Testgården 2')], approvals: [[0], [1]], pastDays: 14, futureDays: 0, occupancy: [0.5, 0.5], residentsPerSystem: 12 };
  }
  if (preset === 'large') {
    const resources = Array.from({ length: 100 }, (_, i) => {
      const kind: ScheduleKind = i % 10 === 9 ? 'threeHour' : 'ninetyMinute';
      return { name: `Tvättstuga ${i + 1}`, description: `Hus ${Math.floor(i / 4) + 1}, ${kind === 'threeHour' ? '3-timmarspass' : '90-minuterspass'}`, kind };
    });
    return { systems: [{ name: 'Storgården', apartments: 2000, resources }], approvals: [[0]], pastDays: 56, futureDays: 21, occupancy: [0.6, 0.6], target: 50_000, residentsPerSystem: 12 };
  }
  const streets = ['Linnégatan 12', 'Sjöutsikten 4', 'Tallbacken 7'];
  const systems = streets.map((street, s): SystemPlan => {
    const count = s === 0 ? 4 : between(2, 5);
    const kind: ScheduleKind = s === 1 ? 'ninetyMinute' : 'threeHour';
    const resources: SystemPlan['resources'] = [];
    for (let i = 0; resources.length < count; i++) {
      if (s === 0 && i === count - 1) resources.push({ name: 'Tvättstuga Gårdshuset', description: 'Oregelbundna pass, sena pass över midnatt', kind: 'irregular' });
      else if (i === 1) resources.push({ name: 'Torkrum', description: 'Torkrum med torkskåp och mangel', kind: 'drying' });
      else resources.push({ name: `Tvättstuga ${resources.length + 1}`, description: pick(['Källarplan', 'Bottenplan, port A', 'Bottenplan, port B']) + (kind === 'threeHour' ? ', 3-timmarspass' : ', 90-minuterspass'), kind });
    }
    return { name: `Brf ${street}, Uppsala`, apartments: between(40, 120), resources };
  });
  return { systems, approvals: [[0, 1], [2]], pastDays: 56, futureDays: 21, occupancy: [0.4, 0.8], residentsPerSystem: 12 };
}

function apartmentId(s: number, i: number, r: () => number): string {
  const floor = 1 + (i % 6);
  const nr = `${floor}${String(1 + Math.floor(i / 6)).padStart(3, '0')}`.slice(0, 4);
  const u = r();
  // Most apartment numbers are four digits; some carry a prefix with a space or a stair with a slash.
  if (u < 0.1) return `LGH ${nr}`;
  if (u < 0.17) return `${String.fromCharCode(65 + (s % 26))}/${nr}`;
  return nr;
}

function emailFor(first: string, last: string, n: number, r: () => number): string {
  const ascii = (v: string) => v.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  const domain = DOMAINS[Math.floor(r() * DOMAINS.length)]!;
  const u = r();
  const local = `${ascii(first)}.${ascii(last)}${n}`;
  if (u < 0.1) return `${local}+tvatt@${domain}`;
  if (u < 0.18) return `${first}.${last}${n}@${domain}`.replace(/[åäö]/gi, (c) => ({ å: 'a', ä: 'a', ö: 'o', Å: 'A', Ä: 'A', Ö: 'O' })[c] ?? c);
  return `${local}@${domain}`;
}

const DAY = 86_400_000;

/** Generates a preset's data; reservations span around `now` (floored to the UTC day). */
export function generate(preset: Preset, seed: number, now: Date, quotaPerGroup: number, options: PresetOptions = {}): SeedData {
  const r = rng(seed * 7919 + PRESETS.indexOf(preset) + 1);
  const id = () => uuidFrom(r);
  const p = plan(preset, r, options);
  const data: SeedData = { systems: [], approvals: [], schedules: [], resources: [], groups: [], users: [], reservations: [], residents: [] };
  const today = Math.floor(now.getTime() / DAY) * DAY;
  let personCounter = 0;
  const groupUsers = new Map<string, string[]>();

  p.systems.forEach((sp, s) => {
    const deviceId = id();
    data.systems.push({ id: deviceId, name: sp.name });
    const scheduleIds = new Map<ScheduleKind, string>();
    const resources = sp.resources.map((rp) => {
      let scheduleId = scheduleIds.get(rp.kind);
      if (!scheduleId) {
        scheduleId = id();
        scheduleIds.set(rp.kind, scheduleId);
        data.schedules.push({ id: scheduleId, deviceId, schedule: SCHEDULES[rp.kind] });
      }
      const resource = { id: id(), deviceId, name: rp.name, description: rp.description, timeScheduleId: scheduleId, kind: rp.kind };
      data.resources.push({ id: resource.id, deviceId, name: rp.name, description: rp.description, timeScheduleId: scheduleId });
      return resource;
    });
    const drying = resources.filter((res) => res.kind === 'drying').map((res) => res.id);
    const groups: string[] = [];
    const seenApartments = new Set<string>();
    // The system's residents listed in the fixtures so far (a count: at a thousand systems a scan of the list per user is quadratic).
    let listed = 0;
    for (let a = 0; a < sp.apartments; a++) {
      let apt = apartmentId(s, a, r);
      if (seenApartments.has(apt)) apt = `${apt}-${a}`;
      seenApartments.add(apt);
      const groupId = id();
      groups.push(groupId);
      const referenceId = `REF-${String(s + 1).padStart(2, '0')}-${String(100_000 + Math.floor(r() * 900_000))}`;
      data.groups.push({ id: groupId, deviceId, name: `Lägenhet ${apt}`, apartmentId: apt, referenceId });
      const members: string[] = [];
      const count = preset === 'tiny' ? 2 : 1 + Math.floor(r() * 3);
      const last = LAST[Math.floor(r() * LAST.length)]!;
      for (let m = 0; m < count; m++) {
        const first = FIRST[Math.floor(r() * FIRST.length)]!;
        const userId = id();
        personCounter++;
        // About one in ten is not authorized for the drying room; in `tiny`, one user is barred
        // from the irregular room so that the authorization rule can be exercised.
        let excluded = drying.length > 0 && r() < 0.1 ? drying : [];
        if (preset === 'tiny' && a === 0 && m === 1) excluded = resources.filter((x) => x.kind === 'irregular').map((x) => x.id);
        const email = emailFor(first, last, personCounter, r);
        data.users.push({ id: userId, deviceId, name: `${first} ${last}`, email, userGroupId: groupId, excluded });
        members.push(userId);
        const interesting = /[+A-Z]/.test(email) || /[ /]/.test(apt);
        if (listed < p.residentsPerSystem && (interesting || (m === 0 && a % 9 === 0) || preset === 'tiny')) {
          listed += 1;
          data.residents.push({ deviceId, userId, name: `${first} ${last}`, email, apartmentId: apt, referenceId, userGroupId: groupId, resourceIds: resources.map((x) => x.id).filter((x) => !excluded.includes(x)) });
        }
      }
      groupUsers.set(groupId, members);
    }
    // A caretaker in no group: the e-mail lookup shows userGroupId null.
    data.users.push({ id: id(), deviceId, name: 'Fastighetsskötare', email: `fastighet.${s + 1}@example.com`, userGroupId: null, excluded: [] });

    const candidates: { resourceId: string; start: number; end: number }[] = [];
    for (const res of resources) {
      const week = SCHEDULES[res.kind];
      for (let d = -p.pastDays; d < p.futureDays; d++) {
        const day = today + d * DAY;
        const weekday = (new Date(day).getUTCDay() + 6) % 7;
        for (const [start, length] of week[weekday] ?? []) {
          candidates.push({ resourceId: res.id, start: day + start * 60_000, end: day + (start + length) * 60_000 });
        }
      }
    }
    // Paging order is insertion order: time order across the system's resources looks natural.
    candidates.sort((x, y) => x.start - y.start);
    let chosen: typeof candidates;
    if (p.target !== undefined) {
      // Partial Fisher-Yates: exactly `target` slots, then back in time order.
      const pool = candidates.map((_, i) => i);
      const n = Math.min(p.target, pool.length);
      for (let i = 0; i < n; i++) {
        const j = i + Math.floor(r() * (pool.length - i));
        [pool[i], pool[j]] = [pool[j]!, pool[i]!];
      }
      chosen = pool.slice(0, n).sort((x, y) => x - y).map((i) => candidates[i]!);
    } else {
      const occupancy = new Map(resources.map((res) => [res.id, p.occupancy[0] + r() * (p.occupancy[1] - p.occupancy[0])]));
      chosen = candidates.filter((c) => r() < occupancy.get(c.resourceId)!);
    }
    const futureCount = new Map<string, number>();
    for (const c of chosen) {
      const future = c.end > now.getTime();
      const service = r() < 0.03;
      let userId: string | null = null;
      let ownerId: string | null = null;
      let ownerType: 'User' | 'Group' | 'Service' = 'Service';
      if (!service) {
        // A future booking goes to an apartment still under its quota (a few tries, else none).
        let groupId = groups[Math.floor(r() * groups.length)]!;
        for (let tries = 0; future && tries < 10 && (futureCount.get(`${groupId}:${c.resourceId}`) ?? 0) >= quotaPerGroup; tries++) {
          groupId = groups[Math.floor(r() * groups.length)]!;
        }
        const key = `${groupId}:${c.resourceId}`;
        if (future && (futureCount.get(key) ?? 0) >= quotaPerGroup) continue;
        if (future) futureCount.set(key, (futureCount.get(key) ?? 0) + 1);
        const members = groupUsers.get(groupId)!;
        userId = members[Math.floor(r() * members.length)]!;
        if (r() < 0.1) { ownerType = 'User'; ownerId = userId; } else { ownerType = 'Group'; ownerId = groupId; }
      }
      data.reservations.push({
        id: id(), deviceId, resourceId: c.resourceId, userId, ownerId, ownerType,
        status: c.start < now.getTime() && r() < 0.85 ? 'Used' : 'Unused',
        startTime: new Date(c.start).toISOString(), endTime: new Date(c.end).toISOString(),
      });
    }
  });
  data.approvals = p.approvals.map((systems) => ({ id: id(), deviceIds: systems.map((s) => data.systems[s]!.id) }));
  if (preset === 'demo') pinReadmeExamples(data);
  return data;
}

/**
 * The apartments and names the README's search examples show, pinned into the
 * demo data (docs/readme-examples.test.ts runs each example against it). Renames only: no draw
 * from the generator, so everything else in the preset stays as it was.
 */
export const README_EXAMPLES = [
  { system: 0, apartment: 9, apartmentId: '1203', name: 'Linnea Persson', email: 'linnea.persson@example.com' },
  { system: 1, apartment: 15, apartmentId: 'B/4003', name: 'Anna Åberg', email: 'anna.aberg@example.org' },
] as const;

function pinReadmeExamples(data: SeedData): void {
  for (const pin of README_EXAMPLES) {
    const deviceId = data.systems[pin.system]?.id;
    const group = data.groups.filter((g) => g.deviceId === deviceId)[pin.apartment];
    if (!group) continue;
    group.apartmentId = pin.apartmentId;
    group.name = `Lägenhet ${pin.apartmentId}`;
    const first = data.users.find((u) => u.userGroupId === group.id);
    if (first) {
      first.name = pin.name;
      first.email = pin.email;
    }
    for (const resident of data.residents.filter((x) => x.userGroupId === group.id)) {
      resident.apartmentId = pin.apartmentId;
      if (resident.userId === first?.id) Object.assign(resident, { name: pin.name, email: pin.email });
    }
  }
}

async function insertJson(sql: SqlRunner, table: string, columns: string, select: string, rows: unknown[]): Promise<void> {
  const CHUNK = 5_000;
  for (let i = 0; i < rows.length; i += CHUNK) {
    // `n` is the row's ordinal across chunks: it becomes the stable paging order.
    await sql.query(`INSERT INTO ${table} (${columns}) SELECT ${select.replaceAll('{n}', `n + ${i}`)} FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(j, n) ORDER BY n`, [JSON.stringify(rows.slice(i, i + CHUNK))]);
  }
}

/** Writes generated data into the (empty) sandbox tables, in one transaction. */
export async function loadSeed(sql: SqlRunner, data: SeedData): Promise<void> {
  await sql.transaction(async (tx) => {
    await insertJson(tx, 'sandbox.systems', 'id, name, seq', `(j->>'id')::uuid, j->>'name', {n}`, data.systems);
    await insertJson(tx, 'sandbox.approvals', 'id, device_ids, seq', `j->>'id', ARRAY(SELECT jsonb_array_elements_text(j->'deviceIds'))::uuid[], {n}`, data.approvals);
    await insertJson(tx, 'sandbox.time_schedules', 'id, device_id, schedule, seq', `(j->>'id')::uuid, (j->>'deviceId')::uuid, j->'schedule', {n}`, data.schedules);
    await insertJson(tx, 'sandbox.resources', 'id, device_id, name, description, time_schedule_id, seq', `(j->>'id')::uuid, (j->>'deviceId')::uuid, j->>'name', j->>'description', (j->>'timeScheduleId')::uuid, {n}`, data.resources);
    await insertJson(tx, 'sandbox.user_groups', 'id, device_id, name, apartment_id, reference_id, seq', `(j->>'id')::uuid, (j->>'deviceId')::uuid, j->>'name', j->>'apartmentId', j->>'referenceId', {n}`, data.groups);
    await insertJson(tx, 'sandbox.users', 'id, device_id, name, email, user_group_id, excluded_resource_ids, seq', `(j->>'id')::uuid, (j->>'deviceId')::uuid, j->>'name', j->>'email', (j->>'userGroupId')::uuid, ARRAY(SELECT jsonb_array_elements_text(j->'excluded'))::uuid[], {n}`, data.users);
    await insertJson(tx, 'sandbox.reservations', 'id, device_id, resource_id, user_id, owner_id, owner_type, status, start_time, end_time', `(j->>'id')::uuid, (j->>'deviceId')::uuid, (j->>'resourceId')::uuid, (j->>'userId')::uuid, (j->>'ownerId')::uuid, j->>'ownerType', j->>'status', (j->>'startTime')::timestamptz, (j->>'endTime')::timestamptz`, data.reservations);
  });
}
