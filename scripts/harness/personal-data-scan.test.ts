import { describe, expect, it } from 'vitest';
import { README_EXAMPLES } from '@/sandbox/seed';
import { demoPeople, demoVocabulary, firstLogTime, personalDataMatcher, scanText } from './personal-data-scan';

const people = [
  { name: 'Anna Andersson', email: 'anna.andersson1@example.com' },
  { name: 'Per Holm', email: 'Per.Holm7@example.org' },
  { name: 'Björn Öberg', email: 'bjorn.oberg12+tvatt@example.net' },
  { name: 'Fastighetsskötare', email: 'fastighet.1@example.com' },
];
const match = personalDataMatcher(people);

describe('the e2e log scan', () => {
  it('finds full names and e-mail addresses as written, JSON-escaped, URL-encoded, in another case, and a genitive', () => {
    expect(match('{"level":"info","message":"booked for Anna Andersson"}')).toEqual(['Anna Andersson']);
    expect(match('{"message":"x","who":"Bj\\u00f6rn \\u00d6berg"}')).toEqual(['Björn Öberg']);
    expect(match('GET /api/residents?q=Per%20Holm 200')).toEqual(['Per Holm']);
    expect(match('GET /api/residents?q=Per+Holm 200')).toEqual(['Per Holm']);
    expect(match('to=bjorn.oberg12%2Btvatt%40example.net')).toEqual(['bjorn.oberg12+tvatt@example.net']);
    expect(match('550 <PER.HOLM7@EXAMPLE.ORG> rejected')).toEqual(['per.holm7@example.org']);
    expect(match('Anna Anderssons bokning')).toEqual(['Anna Andersson']);
    expect(match('Anna\nAndersson'.replace('\n', ' '))).toEqual(['Anna Andersson']);
    expect(match('mail to fastighet.1@example.com failed')).toEqual(['fastighet.1@example.com']);
  });

  it('reports no first name alone, no name inside a longer one, no address inside a longer one, no one-word name', () => {
    for (const clean of [
      'Anna signed in',
      'Per Holmberg booked',
      'HPer Holm',
      'annan.andersson1@example.com',
      'anna.andersson12@example.com',
      'anna.andersson1@example.community',
      'the Fastighetsskötare account',
      '30 per Holm', // case as written: "per" is a word in English and Swedish
      '{"level":"info","message":"mail sent","recipient":"[redacted]","error":"550 <[email]>"}',
    ]) {
      expect(match(clean), clean).toEqual([]);
    }
  });

  it('with the generator’s vocabulary, finds a demo person whatever moment the sandbox was seeded at', () => {
    const any = personalDataMatcher([], demoVocabulary());
    expect(any('booked for Hassan Ekström')).toEqual(['Hassan Ekström']);
    expect(any('550 <Hassan.Ekstrom412+tvatt@EXAMPLE.NET> rejected')).toEqual(['hassan.ekstrom412+tvatt@example.net']);
    expect(any('to maja.oberg7@example.org')).toEqual(['maja.oberg7@example.org']);
    for (const clean of ['Hassan signed in', 'Maja Öbergs'.slice(0, 4), 'maja.oberg7@example.organic', 'xmaja.oberg7@example.org', 'admin@example.com', 'Demo Manager']) {
      expect(any(clean), clean).toEqual([]);
    }
    // Every user the generator makes, at any moment, is one of these (the caretakers, one-word names, come from demoPeople).
    const seededAt = new Date('2026-11-27T09:41:13.250Z');
    const people = demoPeople(seededAt, seededAt);
    const vocabularyOnly = personalDataMatcher([], demoVocabulary());
    const missed = people.filter((p) => {
      const found = vocabularyOnly(`${p.name} <${p.email}>`);
      return /\s/.test(p.name) && !(found.includes(p.name) && found.includes(p.email.toLowerCase()));
    });
    expect(missed).toEqual([]);
  });

  it('gives each finding its file, line and the line itself', () => {
    expect(scanText('server.out.log', 'ok\nhello Anna Andersson\n', match)).toEqual([
      { file: 'server.out.log', line: 2, found: 'Anna Andersson', excerpt: 'hello Anna Andersson' },
    ]);
  });

  it('derives the demo residents from the sandbox seed, the README’s pinned examples among them, for each day of the run', () => {
    const from = new Date('2026-03-01T23:00:00Z');
    const oneDay = demoPeople(from, from);
    const twoDays = demoPeople(from, new Date('2026-03-02T01:00:00Z'));
    expect(oneDay.length).toBeGreaterThan(100);
    expect(twoDays.length).toBeGreaterThanOrEqual(oneDay.length);
    for (const pinned of README_EXAMPLES) expect(oneDay).toContainEqual({ name: pinned.name, email: pinned.email });
    expect(oneDay.every((p) => p.email.includes('@'))).toBe(true);
  });

  it('reads when a log began from pino’s first time field', () => {
    expect(firstLogTime('▲ Next.js\n{"level":"info","time":"2026-11-27T10:00:00.000Z","message":"database ready"}\n{"time":"2026-11-27T11:00:00.000Z"}')?.toISOString()).toBe('2026-11-27T10:00:00.000Z');
    expect(firstLogTime('no json here')).toBeNull();
  });
});
