import 'server-only';
import { and, desc, eq, ilike, isNotNull, or } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { mailOutbox, reservationRequests } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors/api-error';
import { hasControlCharacters } from '@/lib/http/control-characters';
import { msg } from '@/lib/i18n/message';
import { readPresentUserIds, readStates } from '@/lib/mirror/store';
import { residentDirectories, searchDirectory } from '@/lib/residents/directory';
import { prepareQuery, RESIDENT_QUERY_MAX_LENGTH } from '@/lib/residents/search';
import { listAllSystems } from '@/lib/systems/store';

// Finding the resident a request for a copy (or, later, erasure) is about, across every system:
// the booking systems' user lists as mirrored, and residents only the portal's own records still
// name (their requests and e-mails outlive the booking system's user list).

/** Shorter searches find too many people to choose from. */
export const PERSONAL_DATA_QUERY_MIN_LENGTH = 2;
/** How many residents a search lists at most. */
export const PERSONAL_DATA_RESULT_LIMIT = 50;

export interface FoundResident {
  deviceId: string;
  systemName: string;
  userId: string;
  name: string;
  email: string | null;
  apartment: string | null;
  referenceId: string | null;
  groupId: string | null;
  /** Where the portal knows them from: the booking system's user list, or only its own records. */
  source: 'booking-system' | 'portal-records';
}

/** The query as searched, or a 400 saying what is wrong with it. */
export function parsePersonalDataQuery(raw: string | null | undefined): string {
  const text = (raw ?? '').trim();
  if (hasControlCharacters(raw ?? '')) throw new ApiError('bad_request', msg('errors.searchControlCharacters'));
  if (text.length > RESIDENT_QUERY_MAX_LENGTH) throw new ApiError('bad_request', msg('errors.searchTooLong', { max: RESIDENT_QUERY_MAX_LENGTH }));
  if (text.length < PERSONAL_DATA_QUERY_MIN_LENGTH) throw new ApiError('bad_request', msg('errors.personalDataQueryTooShort', { min: PERSONAL_DATA_QUERY_MIN_LENGTH }));
  return text;
}

/** A LIKE pattern that matches `text` literally anywhere. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Residents the portal's requests and e-mails name by name, apartment or address (newest record first). */
export async function readResidentsOfRecords(db: Database, query: string) {
  const r = reservationRequests;
  const pattern = containing(query);
  const fromRequests = db
    .selectDistinctOn([r.deviceId, r.residentUserId], { deviceId: r.deviceId, userId: r.residentUserId, name: r.residentName, apartment: r.residentApartment, groupId: r.residentGroupId })
    .from(r)
    .where(and(isNotNull(r.residentUserId), or(ilike(r.residentName, pattern), ilike(r.residentApartment, pattern))))
    .orderBy(r.deviceId, r.residentUserId, desc(r.createdAt))
    .limit(PERSONAL_DATA_RESULT_LIMIT);
  const m = mailOutbox;
  const fromMail = db
    .selectDistinctOn([r.deviceId, r.residentUserId], { deviceId: r.deviceId, userId: r.residentUserId, name: r.residentName, apartment: r.residentApartment, groupId: r.residentGroupId, email: m.recipient })
    .from(m)
    .innerJoin(r, eq(r.id, m.requestId))
    .where(and(isNotNull(r.residentUserId), ilike(m.recipient, pattern)))
    .orderBy(r.deviceId, r.residentUserId, desc(m.createdAt))
    .limit(PERSONAL_DATA_RESULT_LIMIT);
  const [requests, mails] = await Promise.all([fromRequests, fromMail]);
  const found = new Map<string, { deviceId: string; userId: string; name: string | null; apartment: string | null; groupId: string | null; email: string | null }>();
  for (const row of [...mails, ...requests.map((x) => ({ ...x, email: null }))]) {
    if (!row.userId) continue;
    const key = `${row.deviceId}/${row.userId}`;
    if (!found.has(key)) found.set(key, { ...row, userId: row.userId });
  }
  return [...found.values()];
}

/** Everyone the query finds, in every system (admins see all): the booking systems' residents first. */
export async function findResidents(db: Database, rawQuery: string): Promise<{ residents: FoundResident[]; truncated: boolean }> {
  const query = parsePersonalDataQuery(rawQuery);
  const prepared = prepareQuery(query);
  const systems = await listAllSystems(db);
  const systemName = new Map(systems.map((s) => [s.deviceId, s.name]));
  const residents: FoundResident[] = [];
  // Every system's state in one read and their directories in a few (a portfolio has a thousand).
  const states = await readStates(db);
  const directories = await residentDirectories(db, systems.map((s) => ({ deviceId: s.deviceId, state: states.get(s.deviceId.toLowerCase()) ?? null })));
  for (const system of systems) {
    const directory = directories.get(system.deviceId.toLowerCase());
    if (!directory) continue;
    for (const { hit } of searchDirectory(directory, system, prepared)) {
      for (const resident of hit.residents) {
        residents.push({
          deviceId: system.deviceId,
          systemName: system.name,
          userId: resident.userId,
          name: resident.name,
          email: resident.email || null,
          apartment: hit.groupName || hit.apartmentId || null,
          referenceId: hit.referenceId || null,
          groupId: hit.groupId,
          source: 'booking-system',
        });
      }
    }
  }
  const listed = new Set(residents.map((r) => `${r.deviceId}/${r.userId}`));
  const records = (await readResidentsOfRecords(db, query)).filter((r) => systemName.has(r.deviceId) && !listed.has(`${r.deviceId}/${r.userId}`));
  // Those the booking system still lists were found above, or did not match there under their current name.
  const present = new Map<string, Set<string>>();
  for (const deviceId of new Set(records.map((r) => r.deviceId))) {
    present.set(deviceId, await readPresentUserIds(db, deviceId, records.filter((r) => r.deviceId === deviceId).map((r) => r.userId)));
  }
  for (const r of records) {
    residents.push({
      deviceId: r.deviceId,
      systemName: systemName.get(r.deviceId) ?? r.deviceId,
      userId: r.userId,
      name: r.name ?? '',
      email: r.email,
      apartment: r.apartment,
      referenceId: null,
      groupId: r.groupId,
      source: present.get(r.deviceId)?.has(r.userId) ? 'booking-system' : 'portal-records',
    });
  }
  return { residents: residents.slice(0, PERSONAL_DATA_RESULT_LIMIT), truncated: residents.length > PERSONAL_DATA_RESULT_LIMIT };
}
