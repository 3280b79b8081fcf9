// What scripts/e2e-log-scan.ts looks for: the demo residents (from the sandbox's own generator)
// and a matcher for their full names and e-mail addresses in log text.
import { DEFAULT_PRESET, DEFAULT_QUOTA_PER_GROUP, DEFAULT_SEED, generate, NAME_PARTS } from '@/sandbox/seed';

export interface Person {
  name: string;
  email: string;
}

export interface Finding {
  file: string;
  line: number;
  found: string;
  excerpt: string;
}

const DAY_MS = 86_400_000;

/**
 * The users of the sandbox's default data on each UTC day from `from` to `to`, sampled at midday.
 * Which users a system gets depends on the exact time it was seeded (the draws before them depend
 * on which bookings are future), so these alone would miss some: `demoVocabulary` covers the rest.
 */
export function demoPeople(from: Date, to: Date): Person[] {
  const people = new Map<string, Person>();
  const first = Math.floor(from.getTime() / DAY_MS);
  const last = Math.max(first, Math.floor(to.getTime() / DAY_MS));
  for (let day = first; day <= last; day++) {
    const data = generate(DEFAULT_PRESET, DEFAULT_SEED, new Date(day * DAY_MS + DAY_MS / 2), DEFAULT_QUOTA_PER_GROUP);
    for (const user of data.users) people.set(`${user.name}\n${user.email}`, { name: user.name, email: user.email });
  }
  return [...people.values()];
}

/** Whatever the seeding time: every full name the generator can make, and the shape of its addresses. */
export interface Vocabulary {
  names: string[];
  /** A regular expression's source for the generator's e-mail addresses (matched case-insensitively). */
  emailPattern: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const fold = (v: string) => v.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

export function demoVocabulary(): Vocabulary {
  const names = NAME_PARTS.first.flatMap((f) => NAME_PARTS.last.map((l) => `${f} ${l}`));
  const alternatives = (parts: readonly string[]) => [...new Set(parts.map((p) => escape(fold(p))))].join('|');
  // sandbox/seed.ts emailFor: first.last<n>[+tvatt]@domain, folded to ASCII (any case).
  const emailPattern = `(?:${alternatives(NAME_PARTS.first)})\\.(?:${alternatives(NAME_PARTS.last)})\\d*(?:\\+[a-z0-9]+)?@(?:${alternatives(NAME_PARTS.domains)})`;
  return { names, emailPattern };
}

/** A matcher for the people's full names (at least two words) and e-mail addresses. */
export function personalDataMatcher(people: readonly Person[], vocabulary?: Vocabulary): (text: string) => string[] {
  const names = [...new Set([...people.map((p) => p.name), ...(vocabulary?.names ?? [])].map((n) => n.normalize('NFC').trim()).filter((n) => /\s/.test(n)))].sort((a, b) => b.length - a.length);
  const emails = [...new Set(people.map((p) => escape(p.email.normalize('NFC').toLowerCase())))].sort((a, b) => b.length - a.length);
  if (vocabulary) emails.push(vocabulary.emailPattern);
  const nameRe = names.length > 0 ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.map((n) => escape(n).replace(/\s+/g, '\\s+')).join('|')})(?=s?(?![\\p{L}\\p{N}]))`, 'gu') : null;
  const emailRe = emails.length > 0 ? new RegExp(`(?<![\\w.%+-])(?:${emails.join('|')})(?![\\w.-]*\\w)`, 'giu') : null;
  return (text) => {
    const found = new Set<string>();
    for (const variant of variantsOf(text.normalize('NFC'))) {
      for (const match of nameRe ? variant.matchAll(nameRe) : []) found.add(match[0].replace(/\s+/g, ' '));
      for (const match of emailRe ? variant.matchAll(emailRe) : []) found.add(match[0].toLowerCase());
    }
    return [...found];
  };
}

/** The line as written, its JSON strings unescaped, its URL-encoded parts decoded, and with "+" as a space. */
function variantsOf(line: string): string[] {
  const variants = [line];
  if (line.includes('\\')) {
    try {
      variants.push(JSON.stringify(JSON.parse(line), null, 0).replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
    } catch {
      variants.push(line.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
    }
  }
  if (/%[0-9a-fA-F]{2}/.test(line)) {
    const decoded = line.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    variants.push(decoded);
  }
  // A query string's "+" is a space: "q=Per+Holm".
  for (const variant of [...variants]) if (/\p{L}\+\p{L}/u.test(variant)) variants.push(variant.replace(/\+/g, ' '));
  return variants;
}

/** Every line of `text` that holds a name or address `match` finds. */
export function scanText(file: string, text: string, match: (line: string) => string[]): Finding[] {
  return text.split('\n').flatMap((line, index) =>
    match(line).map((found) => ({ file, line: index + 1, found, excerpt: line.length > 240 ? `${line.slice(0, 240)}…` : line })),
  );
}

/** The earliest ISO time a log line carries (pino's "time"), if any. */
export function firstLogTime(text: string): Date | null {
  const match = /"time":"(\d{4}-\d\d-\d\dT[^"]+)"/.exec(text);
  const time = match?.[1] ? new Date(match[1]) : null;
  return time && !Number.isNaN(time.getTime()) ? time : null;
}

