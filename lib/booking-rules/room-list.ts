import type { Locale } from '@/lib/i18n/config';

/**
 * Rooms as residents read them: "Tvättstuga 1, 4 and 5" when the names differ only in their last
 * word, else "Tvättstuga, Torkrum and Mangelrum" — in the reader's language's list form. Its own
 * module so the grid's words (browser) use it without the rule sets' zod schemas.
 */
export function roomList(names: readonly string[], locale: Locale): string {
  const list = new Intl.ListFormat(locale, { type: 'conjunction' });
  if (names.length < 2) return names[0] ?? '';
  const split = names.map((n) => /^(.*\S)\s+(\S+)$/.exec(n.trim()));
  const prefix = split[0]?.[1];
  if (prefix && split.every((m) => m?.[1] === prefix)) return `${prefix} ${list.format(split.map((m) => m![2]!))}`;
  return list.format(names);
}
