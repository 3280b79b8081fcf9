/**
 * A translator that remembers what it has said: the same key with the same values gives the same
 * sentence, so it is worked out once. A week grid asks for the same few sentences dozens of times
 * (every slot's time range, state and day), and each ICU formatting costs microseconds that added
 * up to about a tenth of the room page's server time (measured). Keep one per render (useMemo),
 * not per process: the catalogue and the language come with the translator it wraps.
 */
export function memoTranslator<T extends (key: never, values?: never) => string>(translate: T): T {
  const said = new Map<string, string>();
  const call = translate as unknown as (key: string, values?: Record<string, unknown>) => string;
  const memo = (key: string, values?: Record<string, unknown>): string => {
    const id = values === undefined ? key : `${key}\u0000${JSON.stringify(values)}`;
    let text = said.get(id);
    if (text === undefined) {
      text = call(key, values);
      said.set(id, text);
    }
    return text;
  };
  // next-intl's translator carries rich(), markup(), raw() and has(): they stay the original's.
  return Object.assign(memo, translate);
}
