// Search as you type over a system's residents: pure functions, no I/O, safe in the browser.
// The server builds an index once per mirror generation (lib/residents/directory.ts) and scans it
// per keystroke, so everything that can be normalised ahead of the query is normalised here once.

import { hasControlCharacters } from '@/lib/http/control-characters';
import { msg, type Message } from '@/lib/i18n/message';

/** The longest resident search (an e-mail address); the server's schema and both search boxes use it. */
export const RESIDENT_QUERY_MAX_LENGTH = 254;

/** One resident in a search result; the labels may be empty strings (the service did not say). */
export interface ResidentHit {
  userId: string;
  name: string;
  email: string;
}

/**
 * One apartment (user group) of one system in a resident search, with the residents it matched:
 * all of them when the apartment's own key (apartment number, reference id) matched, else those
 * whose name or e-mail did. A user in no group is an entry of their own (groupId null).
 */
export interface ApartmentHit {
  deviceId: string;
  systemName: string;
  groupId: string | null;
  apartmentId: string;
  groupName: string;
  referenceId: string;
  residents: ResidentHit[];
}

/** GET /api/residents?q= */
export interface ResidentSearchResult {
  apartments: ApartmentHit[];
  /** More apartments matched than are listed: the search should be narrowed. */
  truncated: boolean;
  /**
   * How many of the systems searched are not loaded yet (issue 49): the portal has no copy of
   * them, so only an exact apartment number, e-mail address or reference id finds residents there.
   * Absent when every system is loaded.
   */
  notLoaded?: number;
}

/** How many apartments a search lists at most; more are cut off and flagged `truncated`. */
export const RESIDENT_RESULT_LIMIT = 20;

export const RESIDENT_QUERY_TOO_LONG: Message = msg('errors.searchTooLong', { max: RESIDENT_QUERY_MAX_LENGTH });
export const RESIDENT_QUERY_CONTROL: Message = msg('errors.searchControlCharacters');

/** A query the search can run ('' means "nothing typed": an empty result, not an error) or why not. */
export type ParsedResidentQuery = { ok: true; query: string } | { ok: false; message: Message; problem: 'control' | 'tooLong' };

/** Any string up to the limit is a query; control characters and over-long ones are refused. */
export function parseResidentQuery(raw: string | null | undefined): ParsedResidentQuery {
  const text = raw ?? '';
  // Checked before trimming: a trailing line break is a control character, not whitespace to drop.
  if (hasControlCharacters(text)) return { ok: false, message: RESIDENT_QUERY_CONTROL, problem: 'control' };
  if (text.length > RESIDENT_QUERY_MAX_LENGTH) return { ok: false, message: RESIDENT_QUERY_TOO_LONG, problem: 'tooLong' };
  return { ok: true, query: text.trim() };
}

// Letters NFD does not split into a base letter and a mark.
const FOLDS: Record<string, string> = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

/** Lower case, diacritics folded ("Åberg" → "aberg"), whitespace collapsed and trimmed. */
export function normaliseText(value: string): string {
  return value
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[øæœßđðłþı]/g, (c) => FOLDS[c] ?? c)
    .replace(/\s+/g, ' ')
    .trim();
}

// "LGH 1001", "lgh1001", "Lägenhet 1001", "apt. 12": the prefix says nothing, the number does.
// Only when no letter follows, so that a key like "APTX-3" keeps its letters.
const APARTMENT_PREFIX = /^(?:lgh|lagenhet|apartment|apt)(?![a-z])\.?/;

/** An apartment number or reference id as compared: folded, prefix dropped, letters and digits only. */
export function keyOf(value: string): string {
  return normaliseText(value).replace(APARTMENT_PREFIX, '').replace(/[^\p{L}\p{N}]/gu, '');
}

/** Words of a name or a query: folded, split at spaces and punctuation ("Anna-Karin" → anna, karin). */
export function wordsOf(value: string): string[] {
  return normaliseText(value)
    .split(/[^\p{L}\p{N}@]+/u)
    .filter((w) => w !== '');
}

export interface DirectoryGroup {
  id: string;
  name: string;
  apartmentId: string;
  referenceId: string;
}

export interface DirectoryUser {
  id: string;
  name: string;
  email: string;
  userGroupId: string | null;
}

interface IndexedUser {
  user: DirectoryUser;
  words: readonly string[];
  email: string;
}

interface IndexedGroup {
  group: DirectoryGroup;
  apartmentKey: string;
  referenceKey: string;
  /** Every user of the group (listed whole when the group's key matches). */
  users: IndexedUser[];
}

/** A sorted list of normalised strings, each naming an entry (a user or a group by its place). */
interface PrefixList {
  keys: readonly string[];
  of: readonly number[];
}

/** One system's residents with their keys normalised once. */
export interface ResidentIndex {
  groups: readonly IndexedGroup[];
  /** Every user, in the order given (the scan for names and e-mail addresses). */
  users: readonly IndexedUser[];
  groupById: ReadonlyMap<string, IndexedGroup>;
  /**
   * Sorted for a prefix's range by binary search (issue 49: a search over a thousand systems must
   * not scan every resident of each): every word of every name, every e-mail address, every
   * apartment and reference key. `keyText` holds the keys one per line, for a key inside them.
   */
  nameWords: PrefixList;
  emails: PrefixList;
  groupKeys: PrefixList;
  keyText: string;
  /** Where each group's line starts in keyText (ascending), and its group. */
  keyLines: readonly number[];
  keyLineGroup: readonly number[];
}

function prefixList(entries: { key: string; of: number }[]): PrefixList {
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.of - b.of));
  return { keys: entries.map((e) => e.key), of: entries.map((e) => e.of) };
}

/** The first place whose key is not before `prefix`. */
function lowerBound(keys: readonly string[], prefix: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The entries whose key starts with `prefix` (a contiguous range of the sorted keys). */
function withPrefix(list: PrefixList, prefix: string): { from: number; to: number } {
  const from = lowerBound(list.keys, prefix);
  let to = from;
  while (to < list.keys.length && list.keys[to]!.startsWith(prefix)) to += 1;
  return { from, to };
}

/** Builds a system's index; ids compare lower-case. */
export function buildResidentIndex(groups: Iterable<DirectoryGroup>, users: Iterable<DirectoryUser>): ResidentIndex {
  const indexedGroups: IndexedGroup[] = [];
  const groupById = new Map<string, IndexedGroup>();
  for (const group of groups) {
    const entry: IndexedGroup = { group, apartmentKey: keyOf(group.apartmentId), referenceKey: keyOf(group.referenceId), users: [] };
    indexedGroups.push(entry);
    groupById.set(group.id.toLowerCase(), entry);
  }
  const indexedUsers: IndexedUser[] = [];
  for (const user of users) {
    const entry: IndexedUser = { user, words: wordsOf(user.name), email: normaliseText(user.email) };
    indexedUsers.push(entry);
    if (user.userGroupId) groupById.get(user.userGroupId.toLowerCase())?.users.push(entry);
  }
  const words: { key: string; of: number }[] = [];
  const emails: { key: string; of: number }[] = [];
  indexedUsers.forEach((u, i) => {
    for (const word of new Set(u.words)) words.push({ key: word, of: i });
    if (u.email !== '') emails.push({ key: u.email, of: i });
  });
  const keys: { key: string; of: number }[] = [];
  const lines: string[] = [];
  const keyLines: number[] = [];
  const keyLineGroup: number[] = [];
  let offset = 0;
  indexedGroups.forEach((g, i) => {
    for (const key of new Set([g.apartmentKey, g.referenceKey])) {
      if (key === '') continue;
      keys.push({ key, of: i });
      keyLines.push(offset);
      keyLineGroup.push(i);
      lines.push(key);
      offset += key.length + 1;
    }
  });
  return {
    groups: indexedGroups,
    users: indexedUsers,
    groupById,
    nameWords: prefixList(words),
    emails: prefixList(emails),
    groupKeys: prefixList(keys),
    keyText: lines.join('\n'),
    keyLines,
    keyLineGroup,
  };
}

/** A query prepared once for every system it is run over. */
export interface PreparedQuery {
  /** Folded text, for e-mail prefixes. */
  text: string;
  words: readonly string[];
  /** The apartment/reference key form ('' when the query has no letters or digits). */
  key: string;
}

export function prepareQuery(query: string): PreparedQuery {
  const text = normaliseText(query);
  return { text, words: wordsOf(query), key: keyOf(query) };
}

/**
 * How well an entry matched, higher first: its apartment number or reference id exactly, or as
 * its start, or inside it (a reference's serial number), then a resident's name or e-mail.
 */
export const MATCH = { exactKey: 4, keyPrefix: 3, keyPart: 2, resident: 1 } as const;

/** Keys shorter than this match only exactly or as a prefix ("1" is inside too many numbers). */
const MIN_PART_LENGTH = 3;

/**
 * Every query word starts a word of the name, each a word of its own ("lin pers" finds "Linnea
 * Persson"; "anna a" and "anna.a" find Anna Andersson, not every Anna: the "a" may not be the
 * "anna" again, issue 48). Names have few words, so trying each assignment is cheap.
 */
export function nameMatches(words: readonly string[], nameWords: readonly string[]): boolean {
  if (words.length === 0 || words.length > nameWords.length) return false;
  const used = new Array<boolean>(nameWords.length).fill(false);
  const fit = (i: number): boolean => {
    if (i === words.length) return true;
    for (let j = 0; j < nameWords.length; j += 1) {
      if (used[j] || !nameWords[j]!.startsWith(words[i]!)) continue;
      used[j] = true;
      if (fit(i + 1)) return true;
      used[j] = false;
    }
    return false;
  };
  return fit(0);
}

function residentMatches(query: PreparedQuery, user: IndexedUser): boolean {
  return nameMatches(query.words, user.words) || (query.text !== '' && user.email.startsWith(query.text));
}

/** An apartment that matched, with how well (see MATCH). */
export interface ScoredHit {
  score: number;
  hit: ApartmentHit;
}

const residentOf = (u: IndexedUser): ResidentHit => ({ userId: u.user.id, name: u.user.name, email: u.user.email });

/** The last place whose value is at most `value` (values ascending, the first ≤ value). */
function lineOf(starts: readonly number[], value: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The apartments of one system a query finds, unranked. Only the candidates the sorted lists give
 * are looked at: the groups whose key starts with (or, from three characters, holds) the query's,
 * the users with a name word starting with the query's rarest word, or an e-mail address starting
 * with it. Found in the index's order, as a scan would.
 */
export function searchIndex(index: ResidentIndex, system: { deviceId: string; name: string }, query: PreparedQuery): ScoredHit[] {
  if (query.text === '') return [];
  const hits = new Map<IndexedGroup | IndexedUser, ScoredHit>();
  const apartment = (g: IndexedGroup, score: number, residents: ResidentHit[]): ScoredHit => ({
    score,
    hit: {
      deviceId: system.deviceId,
      systemName: system.name,
      groupId: g.group.id,
      apartmentId: g.group.apartmentId,
      groupName: g.group.name,
      referenceId: g.group.referenceId,
      residents,
    },
  });
  const groupScores = new Map<number, number>();
  if (query.key !== '') {
    const { from, to } = withPrefix(index.groupKeys, query.key);
    for (let i = from; i < to; i += 1) {
      const g = index.groupKeys.of[i]!;
      const score = index.groupKeys.keys[i] === query.key ? MATCH.exactKey : MATCH.keyPrefix;
      groupScores.set(g, Math.max(groupScores.get(g) ?? 0, score));
    }
    if (query.key.length >= MIN_PART_LENGTH) {
      for (let at = index.keyText.indexOf(query.key); at !== -1; at = index.keyText.indexOf(query.key, at + 1)) {
        const g = index.keyLineGroup[lineOf(index.keyLines, at)]!;
        if (!groupScores.has(g)) groupScores.set(g, MATCH.keyPart);
      }
    }
  }
  for (const g of [...groupScores.keys()].sort((a, b) => a - b)) {
    const group = index.groups[g]!;
    hits.set(group, apartment(group, groupScores.get(g)!, group.users.map(residentOf)));
  }
  const candidates = new Set<number>();
  if (query.words.length > 0) {
    // Every query word must start a word of the name: the rarest one's users are the only candidates.
    let rarest = { from: 0, to: 0 };
    let fewest = Infinity;
    for (const word of query.words) {
      const range = withPrefix(index.nameWords, word);
      if (range.to - range.from < fewest) [rarest, fewest] = [range, range.to - range.from];
    }
    for (let i = rarest.from; i < rarest.to; i += 1) candidates.add(index.nameWords.of[i]!);
  }
  const mailed = withPrefix(index.emails, query.text);
  for (let i = mailed.from; i < mailed.to; i += 1) candidates.add(index.emails.of[i]!);
  for (const at of [...candidates].sort((a, b) => a - b)) {
    const u = index.users[at]!;
    if (!residentMatches(query, u)) continue;
    const group = u.user.userGroupId ? index.groupById.get(u.user.userGroupId.toLowerCase()) : undefined;
    if (group) {
      const held = hits.get(group);
      if (held) {
        // Matched by its key already, with every resident listed.
        if (held.score === MATCH.resident) held.hit.residents.push(residentOf(u));
      } else {
        hits.set(group, apartment(group, MATCH.resident, [residentOf(u)]));
      }
      continue;
    }
    // No group, or a group the list does not hold: the user is an entry of their own.
    hits.set(u, {
      score: MATCH.resident,
      hit: {
        deviceId: system.deviceId,
        systemName: system.name,
        groupId: u.user.userGroupId?.toLowerCase() ?? null,
        apartmentId: '',
        groupName: '',
        referenceId: '',
        residents: [residentOf(u)],
      },
    });
  }
  return [...hits.values()];
}

const collator = new Intl.Collator('sv', { numeric: true, sensitivity: 'base' });
const byName = (a: ResidentHit, b: ResidentHit) => collator.compare(a.name, b.name) || a.userId.localeCompare(b.userId);

/** Best match first, then by system name and apartment number (natural order). */
function compareHits(a: ScoredHit, b: ScoredHit): number {
  return (
    b.score - a.score ||
    collator.compare(a.hit.systemName, b.hit.systemName) ||
    a.hit.deviceId.localeCompare(b.hit.deviceId) ||
    // An entry without apartment number after those with one.
    Number(a.hit.apartmentId === '') - Number(b.hit.apartmentId === '') ||
    // "LGH 1001" sorts as 1001, before 2002.
    collator.compare(keyOf(a.hit.apartmentId), keyOf(b.hit.apartmentId)) ||
    collator.compare(a.hit.apartmentId, b.hit.apartmentId) ||
    collator.compare(a.hit.residents[0]?.name ?? '', b.hit.residents[0]?.name ?? '')
  );
}

/**
 * The best `limit` hits in that order. A short query over a thousand systems matches a hundred
 * thousand apartments: they are not all sorted, the best are kept as they pass (most cost one
 * comparison, with the worst kept so far).
 */
export function rankHits(hits: readonly ScoredHit[], limit = RESIDENT_RESULT_LIMIT): { apartments: ApartmentHit[]; truncated: boolean } {
  const best: ScoredHit[] = [];
  for (const hit of hits) {
    if (best.length >= limit && (limit === 0 || compareHits(hit, best[best.length - 1]!) >= 0)) continue;
    let at = best.length;
    while (at > 0 && compareHits(hit, best[at - 1]!) < 0) at -= 1;
    best.splice(at, 0, hit);
    if (best.length > limit) best.pop();
  }
  return {
    apartments: best.map((s) => ({ ...s.hit, residents: [...s.hit.residents].sort(byName) })),
    truncated: hits.length > limit,
  };
}

/** One system's search, ranked: the whole job for a single index (tests, the browser). */
export function searchResidentIndex(index: ResidentIndex, system: { deviceId: string; name: string }, query: string, limit?: number) {
  return rankHits(searchIndex(index, system, prepareQuery(query)), limit);
}

/**
 * What names a hit's apartment, as lists and labels say it: its number ("LGH 1001"), else the
 * group's name, else unnamed, or no apartment at all (the components word each in the reader's language).
 */
export function apartmentLabel(hit: Pick<ApartmentHit, 'apartmentId' | 'groupName' | 'groupId'>): { kind: 'apartment' | 'unnamed' | 'none'; label: string } {
  if (hit.apartmentId.trim() !== '') return { kind: 'apartment', label: hit.apartmentId.trim() };
  if (hit.groupName.trim() !== '') return { kind: 'apartment', label: hit.groupName.trim() };
  return { kind: hit.groupId ? 'unnamed' : 'none', label: '' };
}

/** A resident's name as shown; '' when the service gave none (shown as "Unnamed resident"). */
export function residentName(resident: Pick<ResidentHit, 'name'>): string {
  return resident.name.trim();
}

/** Where a found resident leads: their apartment's page, or the system's page for one in no group. */
export function apartmentHref(hit: Pick<ApartmentHit, 'deviceId' | 'groupId'>): string {
  return hit.groupId ? `/systems/${hit.deviceId}/apartments/${hit.groupId}` : `/systems/${hit.deviceId}`;
}
