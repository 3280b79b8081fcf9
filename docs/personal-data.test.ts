// docs/personal-data.md matches the code's inventory: every column marked personal is listed with
// its retention class, nothing is listed that is not marked, and every retention class is explained.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { columnRef, personalColumns, RETENTION_CLASSES } from '@/lib/db/personal-data';

const doc = readFileSync(path.join(import.meta.dirname, 'personal-data.md'), 'utf8');
/** The inventory's rows as the document has them: `table.column` | kind | why | class. */
const rows = new Map(
  [...doc.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \| ([a-z-]+) \| (.+?) \| ([a-z0-9-]+) \|$/gm)].map((m) => [m[1]!, { kind: m[2]!, retention: m[4]! }]),
);

describe('docs/personal-data.md', () => {
  it('lists every column marked personal, with the kind and retention class the schema gives it', () => {
    const missing = personalColumns().filter((c) => rows.get(columnRef(c))?.retention !== c.retention || rows.get(columnRef(c))?.kind !== c.kind);
    expect(missing.map((c) => `${columnRef(c)} (${c.kind}, ${c.retention})`)).toEqual([]);
  });

  it('lists no column the schema does not mark personal', () => {
    const marked = new Set(personalColumns().map(columnRef));
    expect([...rows.keys()].filter((ref) => !marked.has(ref))).toEqual([]);
  });

  it('explains every retention class', () => {
    for (const name of Object.keys(RETENTION_CLASSES)) expect(doc, name).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
  });
});
