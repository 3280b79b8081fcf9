import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TYPE, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, LOCALES } from './config';

const MESSAGES_DIR = path.join(import.meta.dirname, '..', '..', 'messages');

type Catalogue = { [key: string]: string | Catalogue };

function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(full, value);
    else for (const [k, v] of flatten(value, full)) out.set(k, v);
  }
  return out;
}

const catalogues = new Map(
  LOCALES.map((locale) => [locale, flatten(JSON.parse(readFileSync(path.join(MESSAGES_DIR, `${locale}.json`), 'utf8')) as Catalogue)]),
);
const reference = catalogues.get('en')!;

/** The arguments a message uses, with their kind ("count:plural", "name:argument", "link:tag"). */
function argumentsOf(elements: MessageFormatElement[], out = new Set<string>()): Set<string> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
        out.add(`${element.value}:argument`);
        break;
      case TYPE.number:
        out.add(`${element.value}:number`);
        break;
      case TYPE.date:
      case TYPE.time:
        out.add(`${element.value}:date`);
        break;
      case TYPE.select:
        out.add(`${element.value}:select`);
        for (const option of Object.values(element.options)) argumentsOf(option.value, out);
        break;
      case TYPE.plural:
        out.add(`${element.value}:plural`);
        for (const option of Object.values(element.options)) argumentsOf(option.value, out);
        break;
      case TYPE.tag:
        out.add(`${element.value}:tag`);
        argumentsOf(element.children, out);
        break;
      default:
        break;
    }
  }
  return out;
}

/** Plural and select elements, anywhere in a message. */
function choices(elements: MessageFormatElement[], out: MessageFormatElement[] = []): MessageFormatElement[] {
  for (const element of elements) {
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      out.push(element);
      for (const option of Object.values(element.options)) choices(option.value, out);
    } else if (element.type === TYPE.tag) choices(element.children, out);
  }
  return out;
}

describe('message catalogues', () => {
  it('has one catalogue file per configured language, and no other', () => {
    const files = readdirSync(MESSAGES_DIR).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
    expect(files).toEqual([...LANGUAGES.map((l) => l.code)].sort());
  });

  for (const [locale, messages] of catalogues) {
    describe(locale, () => {
      it('has every key the English catalogue has, and no key it lacks', () => {
        const missing = [...reference.keys()].filter((k) => !messages.has(k));
        const extra = [...messages.keys()].filter((k) => !reference.has(k));
        expect({ missing, extra }).toEqual({ missing: [], extra: [] });
      });

      it('has valid ICU message syntax in every message', () => {
        const invalid: string[] = [];
        for (const [key, text] of messages) {
          try {
            parse(text, { requiresOtherClause: true });
          } catch (error) {
            invalid.push(`${key}: ${(error as Error).message}`);
          }
        }
        expect(invalid).toEqual([]);
      });

      it('uses the same arguments as English in every message', () => {
        const different: string[] = [];
        for (const [key, text] of messages) {
          const english = reference.get(key);
          if (english === undefined) continue;
          try {
            const mine = [...argumentsOf(parse(text))].sort();
            const theirs = [...argumentsOf(parse(english))].sort();
            if (mine.join() !== theirs.join()) different.push(`${key}: ${mine.join(' ')} ≠ ${theirs.join(' ')}`);
          } catch {
            // Reported by the syntax test.
          }
        }
        expect(different).toEqual([]);
      });

      it('gives every plural and select an "other" case, and plurals only categories the language has', () => {
        const categories = new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories);
        const wrong: string[] = [];
        for (const [key, text] of messages) {
          let elements: MessageFormatElement[];
          try {
            elements = parse(text);
          } catch {
            continue;
          }
          for (const choice of choices(elements)) {
            if (choice.type !== TYPE.plural && choice.type !== TYPE.select) continue;
            const options = Object.keys(choice.options);
            if (!options.includes('other')) wrong.push(`${key}: no "other" case`);
            if (choice.type === TYPE.plural) {
              for (const option of options) {
                if (!option.startsWith('=') && !categories.has(option as Intl.LDMLPluralRule)) wrong.push(`${key}: "${option}" is not a plural category of ${locale}`);
              }
            }
          }
        }
        expect(wrong).toEqual([]);
      });

      it('has no empty message and none with stray whitespace at its ends', () => {
        const bad = [...messages].filter(([, text]) => text.trim() === '' || text !== text.trim()).map(([key]) => key);
        expect(bad).toEqual([]);
      });
    });
  }

  it('has Swedish that is not a copy of the English (sentences of three words or more)', () => {
    const swedish = catalogues.get('sv')!;
    const copies = [...reference].filter(([key, text]) => text.split(/\s+/).length >= 3 && swedish.get(key) === text).map(([key]) => key);
    expect(copies).toEqual([]);
  });
});
