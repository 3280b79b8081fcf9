import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { reachedFrom, ROOT } from '@/tests/client-modules';
import { catalogues } from '@/tests/intl';
import { clientMessages, SERVER_ONLY_NAMESPACES } from './client-messages';

const tracked = (pattern: string) => execFileSync('git', ['ls-files', pattern], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((f) => f && !f.includes('.test.'));

it('leaves out exactly the namespaces that no client module and no API message reads', () => {
  const namespaces = new Set(Object.keys(catalogues.en));
  const read = new Map<string, string>();
  // Every module a 'use client' file reaches: its useTranslations('ns…') and its literal 'ns.key's.
  const clientEntries = [...tracked('app/**'), ...tracked('components/**'), ...tracked('lib/**')].filter((f) => /\.tsx?$/.test(f) && readFileSync(path.join(ROOT, f), 'utf8').startsWith("'use client'"));
  expect(clientEntries.length).toBeGreaterThan(20);
  for (const file of reachedFrom(clientEntries).files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/useTranslations\(\s*'([A-Za-z]+)/g)) read.set(m[1]!, path.relative(ROOT, file));
    for (const m of text.matchAll(/['`]([A-Za-z]+)\.[A-Za-z${]/g)) if (namespaces.has(m[1]!)) read.set(m[1]!, path.relative(ROOT, file));
  }
  // Messages an answer can carry (an API error, a refusal), translated in the browser.
  for (const file of [...tracked('app/**'), ...tracked('lib/**')].filter((f) => /\.tsx?$/.test(f))) {
    for (const m of readFileSync(path.join(ROOT, file), 'utf8').matchAll(/\bmsg\(\s*['`]([A-Za-z]+)\./g)) read.set(m[1]!, file);
  }
  for (const namespace of SERVER_ONLY_NAMESPACES) {
    expect(namespaces.has(namespace), `${namespace} is a catalogue namespace`).toBe(true);
    expect(read.get(namespace) ?? null, `${namespace} is read in the browser`).toBeNull();
  }
  expect(read.has('slot')).toBe(true);
  // And the other way: a namespace nothing in the browser reads is left out (every page's HTML
  // would carry it). A new server-only namespace belongs in SERVER_ONLY_NAMESPACES.
  const unread = [...namespaces].filter((n) => !read.has(n) && !(SERVER_ONLY_NAMESPACES as readonly string[]).includes(n));
  expect(unread, 'namespaces no client module or API message reads, not in SERVER_ONLY_NAMESPACES').toEqual([]);
});

it('hands the client every other namespace, in both languages', () => {
  for (const catalogue of [catalogues.en, catalogues.sv]) {
    const client = clientMessages(catalogue);
    expect(Object.keys(client).sort()).toEqual(Object.keys(catalogue).filter((n) => !(SERVER_ONLY_NAMESPACES as readonly string[]).includes(n)).sort());
    expect(client.slot).toBe(catalogue.slot);
  }
});
