// Every search example of the README ("Finding a resident") finds what the README promises in the
// demo data — the sandbox's `demo` preset, which a first run loads — through the portal's own
// search (lib/residents/search.ts), within the systems the demo manager is given.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildResidentIndex, keyOf, normaliseText, searchResidentIndex } from '@/lib/residents/search';
import { generate, README_EXAMPLES } from '@/sandbox/seed';

const README = readFileSync(path.resolve(import.meta.dirname, '..', 'README.md'), 'utf8');
const data = generate('demo', 1, new Date(), 2);
const managerSystems = data.approvals[0]!.deviceIds;

function search(query: string) {
  return managerSystems.flatMap((deviceId) => {
    const system = data.systems.find((s) => s.id === deviceId)!;
    const index = buildResidentIndex(
      data.groups.filter((g) => g.deviceId === deviceId),
      data.users.filter((u) => u.deviceId === deviceId),
    );
    return searchResidentIndex(index, { deviceId, name: system.name }, query).apartments;
  });
}

/** The README's table under "Finding a resident": each row's examples (code spans) and promise. */
function examples(): { queries: string[]; promise: string }[] {
  const section = README.split('## Finding a resident')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.includes('---') && !line.includes('You type'))
    .map((line) => {
      const [typed = '', promise = ''] = line.split('|').slice(1, 3);
      return { queries: [...typed.matchAll(/`([^`]+)`/g)].map((m) => m[1]!), promise: promise.trim() };
    });
}

describe("the README's search examples, against the demo data", () => {
  const rows = examples();

  it('the README has the four kinds of example', () => {
    expect(rows.map((r) => r.promise)).toEqual([
      expect.stringMatching(/by name/),
      expect.stringMatching(/an apartment/),
      expect.stringMatching(/its resident/),
      expect.stringMatching(/reference id/),
    ]);
  });

  for (const row of rows) {
    for (const query of row.queries) {
      it(`"${query}" finds ${row.promise}`, () => {
        const hits = search(query);
        expect(hits.length, `"${query}" found nothing`).toBeGreaterThan(0);
        const first = hits[0]!;
        if (/by name/.test(row.promise)) {
          const words = normaliseText(query).split(' ');
          const names = first.residents.map((r) => normaliseText(r.name));
          expect(names.some((n) => words.every((w) => n.includes(w)))).toBe(true);
        } else if (/an apartment/.test(row.promise)) {
          expect(keyOf(first.apartmentId)).toBe(keyOf(query));
        } else if (/reference id/.test(row.promise)) {
          // The demo's first apartment (LGH 1001) carries the README's reference id as generated.
          expect(keyOf(first.referenceId).endsWith(keyOf(query))).toBe(true);
        }
      });
    }
  }

  it('the start of an e-mail address finds its resident', () => {
    for (const pin of README_EXAMPLES) {
      const hits = search(pin.email.slice(0, 10));
      expect(hits[0]?.residents.map((r) => r.name)).toContain(pin.name);
    }
  });
});
