import { describe, expect, it } from 'vitest';
import {
  apartmentLabel,
  buildResidentIndex,
  keyOf,
  MATCH,
  nameMatches,
  normaliseText,
  parseResidentQuery,
  prepareQuery,
  rankHits,
  RESIDENT_QUERY_CONTROL,
  RESIDENT_QUERY_TOO_LONG,
  residentName,
  searchIndex,
  searchResidentIndex,
  type ScoredHit,
  wordsOf,
  type DirectoryGroup,
  type DirectoryUser,
} from './search';

const groups: DirectoryGroup[] = [
  { id: 'g-1001', name: 'Lägenhet LGH 1001', apartmentId: 'LGH 1001', referenceId: 'REF-01-233093' },
  { id: 'g-b4003', name: 'Lägenhet B/4003', apartmentId: 'B/4003', referenceId: 'REF-01-555111' },
  { id: 'g-10015', name: 'Lägenhet 1001-5', apartmentId: '1001-5', referenceId: 'REF-01-777000' },
  { id: 'g-2002', name: 'Lägenhet 2002', apartmentId: '2002', referenceId: 'REF-01-100200' },
  { id: 'g-empty', name: '', apartmentId: '', referenceId: '' },
];
const users: DirectoryUser[] = [
  { id: 'u-linnea', name: 'Linnea Persson', email: 'linnea.persson1@example.com', userGroupId: 'g-1001' },
  { id: 'u-anna', name: 'Anna Persson', email: 'Anna.Persson2@Example.com', userGroupId: 'G-1001' },
  { id: 'u-aberg', name: 'Åsa Åberg', email: 'asa.aberg3@example.com', userGroupId: 'g-b4003' },
  { id: 'u-annak', name: 'Anna-Karin  Lind', email: 'ak@example.com', userGroupId: 'g-2002' },
  { id: 'u-caretaker', name: 'Fastighetsskötare', email: 'fastighet.1@example.com', userGroupId: null },
  { id: 'u-blank', name: '', email: '', userGroupId: 'g-empty' },
  { id: 'u-lost', name: 'Anna Lost', email: '', userGroupId: 'g-unknown' },
];
const system = { deviceId: 'd-1', name: 'Brf Linnégatan 12' };
const index = buildResidentIndex(groups, users);
const search = (q: string, limit?: number) => searchResidentIndex(index, system, q, limit);
const groupsOf = (q: string) => search(q).apartments.map((a) => a.groupId);

describe('query limits', () => {
  it('trims, accepts any text up to the limit, and refuses control characters and longer ones', () => {
    expect(parseResidentQuery('  LGH 1001 ')).toEqual({ ok: true, query: 'LGH 1001' });
    expect(parseResidentQuery('')).toEqual({ ok: true, query: '' });
    expect(parseResidentQuery(null)).toEqual({ ok: true, query: '' });
    expect(parseResidentQuery('   ')).toEqual({ ok: true, query: '' });
    expect(parseResidentQuery('%_\\\'";--')).toEqual({ ok: true, query: '%_\\\'";--' });
    expect(parseResidentQuery('x'.repeat(254))).toMatchObject({ ok: true });
    expect(parseResidentQuery('x'.repeat(255))).toEqual({ ok: false, message: RESIDENT_QUERY_TOO_LONG, problem: 'tooLong' });
    expect(parseResidentQuery('anna\u0000')).toEqual({ ok: false, message: RESIDENT_QUERY_CONTROL, problem: 'control' });
    expect(parseResidentQuery('anna\n')).toEqual({ ok: false, message: RESIDENT_QUERY_CONTROL, problem: 'control' });
    expect(parseResidentQuery('anna\u0085')).toEqual({ ok: false, message: RESIDENT_QUERY_CONTROL, problem: 'control' });
  });

  it('finds nothing for an empty or blank query', () => {
    expect(search('')).toEqual({ apartments: [], truncated: false });
    expect(search('   ')).toEqual({ apartments: [], truncated: false });
  });
});

describe('normalisation', () => {
  it('folds case and diacritics and collapses whitespace', () => {
    expect(normaliseText('  Åsa   ÅBERG ')).toBe('asa aberg');
    expect(normaliseText('Søren Æbelø Straße')).toBe('soren aebelo strasse');
    expect(normaliseText('Linnégatan\t12')).toBe('linnegatan 12');
  });

  it('keeps letters and digits of keys and drops an apartment prefix', () => {
    for (const q of ['LGH 1001', 'lgh 1001', 'LGH1001', 'lgh-1001', 'Lägenhet 1001', 'apt. 1001', '1001']) expect(keyOf(q)).toBe('1001');
    expect(keyOf('B/4003')).toBe('b4003');
    expect(keyOf('REF-01-233093')).toBe('ref01233093');
    // A prefix only when no letter follows it.
    expect(keyOf('APTX-3')).toBe('aptx3');
    expect(keyOf('lgh')).toBe('');
  });

  it('splits names into words at spaces and hyphens', () => {
    expect(wordsOf('Anna-Karin  Lind')).toEqual(['anna', 'karin', 'lind']);
    expect(wordsOf('')).toEqual([]);
  });
});

describe('matching', () => {
  it('finds an apartment by its number however it is typed', () => {
    for (const q of ['LGH 1001', 'lgh 1001', 'LGH1001', 'lägenhet 1001', '1001']) expect(groupsOf(q)[0]).toBe('g-1001');
    expect(groupsOf('b/4003')).toEqual(['g-b4003']);
    expect(groupsOf('B4003')).toEqual(['g-b4003']);
  });

  it('finds an apartment by its reference id, whole or by its serial number', () => {
    expect(groupsOf('ref-01-233093')).toEqual(['g-1001']);
    expect(groupsOf('REF01233093')).toEqual(['g-1001']);
    expect(groupsOf('233093')).toEqual(['g-1001']);
    expect(groupsOf('33093')).toEqual(['g-1001']);
  });

  it('lists every resident of an apartment found by its key', () => {
    const [hit] = search('lgh 1001').apartments;
    expect(hit).toMatchObject({ deviceId: 'd-1', systemName: 'Brf Linnégatan 12', groupId: 'g-1001', apartmentId: 'LGH 1001', referenceId: 'REF-01-233093' });
    expect(hit!.residents.map((r) => r.userId)).toEqual(['u-anna', 'u-linnea']);
  });

  it('finds residents by name: every query word starts a word of the name', () => {
    expect(groupsOf('Persson')).toEqual(['g-1001']);
    expect(groupsOf('Linnea Persson')).toEqual(['g-1001']);
    expect(search('Linnea Persson').apartments[0]!.residents.map((r) => r.userId)).toEqual(['u-linnea']);
    expect(groupsOf('pers lin')).toEqual(['g-1001']);
    expect(groupsOf('aberg')).toEqual(['g-b4003']);
    expect(groupsOf('ÅSA')).toEqual(['g-b4003']);
    expect(groupsOf('karin')).toEqual(['g-2002']);
    expect(groupsOf('Linnea Andersson')).toEqual([]);
    expect(groupsOf('erss')).toEqual([]);
  });

  it('finds residents by the start of their e-mail address, in any case', () => {
    expect(search('anna.persson2@EXAMPLE').apartments[0]!.residents.map((r) => r.userId)).toEqual(['u-anna']);
    expect(groupsOf('ANNA.P')).toEqual(['g-1001']);
    expect(groupsOf('example.com')).toEqual([]);
  });

  it('makes a user without a group, or with a group the list lacks, an entry of their own', () => {
    expect(search('fastighet').apartments).toEqual([
      { deviceId: 'd-1', systemName: system.name, groupId: null, apartmentId: '', groupName: '', referenceId: '', residents: [{ userId: 'u-caretaker', name: 'Fastighetsskötare', email: 'fastighet.1@example.com' }] },
    ]);
    expect(search('lost').apartments[0]).toMatchObject({ groupId: 'g-unknown', apartmentId: '', residents: [{ userId: 'u-lost' }] });
  });

  it('never matches empty labels', () => {
    expect(groupsOf('@')).toEqual([]);
    expect(groupsOf('---')).toEqual([]);
    expect(search('x').apartments.find((a) => a.groupId === 'g-empty')).toBeUndefined();
  });

  it('lists a resident once even when found by the key and by the name', () => {
    const hits = searchIndex(index, system, prepareQuery('1001'));
    const persson = hits.find((h) => h.hit.groupId === 'g-1001')!;
    expect(persson.score).toBe(MATCH.exactKey);
    expect(persson.hit.residents).toHaveLength(2);
  });
});

describe('ranking and limits', () => {
  it('puts an exact key before a prefix, and keys before names', () => {
    expect(groupsOf('1001')).toEqual(['g-1001', 'g-10015']);
    const scores = searchIndex(index, system, prepareQuery('1001')).map((h) => h.score).sort();
    expect(scores).toEqual([MATCH.keyPrefix, MATCH.exactKey]);
    // "anna" is a name in three places; the apartment numbers order them, the one without last.
    expect(search('anna').apartments.map((a) => a.groupId)).toEqual(['g-1001', 'g-2002', 'g-unknown']);
  });

  it('orders equal matches by system name, then apartment number in natural order', () => {
    const other = { deviceId: 'd-0', name: 'Brf Almen' };
    const otherIndex = buildResidentIndex([{ id: 'x-1001', name: '', apartmentId: '1001', referenceId: '' }, { id: 'x-901', name: '', apartmentId: '901', referenceId: '' }], [{ id: 'x-u', name: 'Anna Berg', email: '', userGroupId: 'x-1001' }, { id: 'x-v', name: 'Anna Ek', email: '', userGroupId: 'x-901' }]);
    const q = prepareQuery('anna');
    const ranked = rankHits([...searchIndex(index, system, q), ...searchIndex(otherIndex, other, q)]);
    expect(ranked.apartments.map((a) => `${a.systemName}:${a.apartmentId}`)).toEqual([
      'Brf Almen:901',
      'Brf Almen:1001',
      'Brf Linnégatan 12:LGH 1001',
      'Brf Linnégatan 12:2002',
      'Brf Linnégatan 12:',
    ]);
  });

  it('keeps the best of thousands of hits as a full sort would, in the same order (issue 49)', () => {
    // Many systems' apartments, every score, equal names and numbers across systems: the kept best must be the sorted list's head.
    const hits: ScoredHit[] = [];
    let seed = 7;
    const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 3_000; i += 1) {
      const system = Math.floor(next() * 40);
      hits.push({
        score: 1 + Math.floor(next() * 4),
        hit: { deviceId: `d-${system}`, systemName: `System ${system % 13}`, groupId: `g-${i}`, apartmentId: next() < 0.1 ? '' : String(1000 + Math.floor(next() * 50)), groupName: '', referenceId: '', residents: [{ userId: `u-${i}`, name: `Anna ${i % 17}`, email: '' }] },
      });
    }
    const whole = rankHits(hits, hits.length).apartments.map((a) => a.groupId);
    const best = rankHits(hits, 20);
    expect(best.apartments.map((a) => a.groupId)).toEqual(whole.slice(0, 20));
    expect(best.truncated).toBe(true);
    // And the whole ranking is a sort: best score first, then the system's name.
    const ranked = rankHits(hits, hits.length).apartments;
    for (let i = 1; i < ranked.length; i += 1) {
      const [a, b] = [hits.find((h) => h.hit.groupId === ranked[i - 1]!.groupId)!, hits.find((h) => h.hit.groupId === ranked[i]!.groupId)!];
      expect(a.score >= b.score).toBe(true);
      if (i > 200) break;
    }
  });

  it('cuts the list at the limit and says so', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `g${i}`, name: '', apartmentId: `${1000 + i}`, referenceId: '' }));
    const big = buildResidentIndex(many, []);
    const first = searchResidentIndex(big, system, '1');
    expect(first.apartments).toHaveLength(20);
    expect(first.truncated).toBe(true);
    expect(first.apartments[0]!.apartmentId).toBe('1000');
    expect(searchResidentIndex(big, system, '1', 30).truncated).toBe(false);
  });
});

describe('labels', () => {
  it('says something for empty labels', () => {
    expect(apartmentLabel({ apartmentId: ' ', groupName: '', groupId: 'g' })).toEqual({ kind: 'unnamed', label: '' });
    expect(apartmentLabel({ apartmentId: '', groupName: 'Lokal', groupId: 'g' })).toEqual({ kind: 'apartment', label: 'Lokal' });
    expect(apartmentLabel({ apartmentId: '', groupName: '', groupId: null })).toEqual({ kind: 'none', label: '' });
    expect(residentName({ name: '  ' })).toBe('');
  });
});

describe('several words (issue 48: "anna a" and "anna.a" listed every Anna)', () => {
  const annas = buildResidentIndex(
    [{ id: 'g-1', name: '', apartmentId: '1001', referenceId: '' }],
    [
      { id: 'a-andersson', name: 'Anna Andersson', email: 'anna.andersson1@example.com', userGroupId: 'g-1' },
      { id: 'a-aberg', name: 'Anna Åberg', email: 'anna.aberg2@example.org', userGroupId: 'g-1' },
      { id: 'a-berg', name: 'Anna Berg', email: 'anna.berg3@example.net', userGroupId: 'g-1' },
      { id: 'a-lind', name: 'Anna-Karin Lind', email: 'ak@example.com', userGroupId: 'g-1' },
      { id: 'a-anna', name: 'Anna Anna', email: '', userGroupId: 'g-1' },
    ],
  );
  const found = (q: string) => searchResidentIndex(annas, system, q).apartments.flatMap((a) => a.residents.map((r) => r.userId)).sort();

  it('needs a word of the name for each word of the query: the "a" is not the "anna" again', () => {
    expect(found('anna a')).toEqual(['a-aberg', 'a-andersson', 'a-anna']);
    expect(found('anna.a')).toEqual(['a-aberg', 'a-andersson', 'a-anna']);
    expect(found('anna, a')).toEqual(['a-aberg', 'a-andersson', 'a-anna']);
    expect(found('anna anna')).toEqual(['a-anna']);
    expect(found('anna')).toHaveLength(5);
  });

  it('takes the words in any order and any fit of them to the name', () => {
    expect(found('a anna')).toEqual(['a-aberg', 'a-andersson', 'a-anna']);
    expect(found('karin anna')).toEqual(['a-lind']);
    expect(nameMatches(['a', 'anna'], ['anna', 'andersson'])).toBe(true);
    expect(nameMatches(['an', 'anna'], ['anna', 'berg'])).toBe(false);
  });
});
