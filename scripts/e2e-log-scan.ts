// Scans the e2e server's log for the demo residents' names and e-mail addresses, and fails
// listing each one found (issue 37: personal data never in logs). `npm test` runs it right after
// the e2e step; every e2e portal (e2e/portal-server.ts: the seed world's, each spec's) keeps its
// output under .data/e2e-logs/.
//
//   npx tsx scripts/e2e-log-scan.ts [log folder]     (default: .data/e2e-logs)
//
// The people come from the sandbox's own generator (sandbox/seed.ts): its users with the preset and
// seed a sandbox starts with, for every UTC day the run spans, and — since which users a system gets
// depends on the moment it was seeded — every full name and address shape the generator can make.
// Matched: full names (case as written, not inside a longer word; a genitive "s" counts) and
// e-mail addresses (any case, not inside a longer address) — so "Anna" in some text or
// "Per Holmberg" beside a resident "Per Holm" are not reported.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { demoPeople, demoVocabulary, firstLogTime, personalDataMatcher, scanText } from './harness/personal-data-scan';

const DAY_MS = 86_400_000;

function main(): number {
  const dir = path.resolve(process.argv[2] ?? '.data/e2e-logs');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.log')).map((f) => path.join(dir, f)) : [];
  if (files.length === 0) {
    console.error(`e2e log scan: no server log in ${dir}. Every portal the e2e suite starts writes one (e2e/portal-server.ts).`);
    return 1;
  }
  const texts = files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const starts = texts.map((t) => firstLogTime(t.text)).filter((t): t is Date => t !== null);
  const now = new Date();
  // The sandbox was seeded at the server's first start: the earliest line, or a day back at most.
  const from = starts.length > 0 ? new Date(Math.min(...starts.map((t) => t.getTime()))) : new Date(now.getTime() - DAY_MS);
  const people = demoPeople(from, now);
  const match = personalDataMatcher(people, demoVocabulary());
  const findings = texts.flatMap((t) => scanText(path.relative(process.cwd(), t.file), t.text, match));
  const lines = texts.reduce((sum, t) => sum + t.text.split('\n').length, 0);
  const written = files.map((f) => statSync(f).mtime.toISOString()).sort().at(-1);
  if (findings.length > 0) {
    console.error(`FAIL e2e log scan: ${findings.length} mention(s) of demo residents in the server log (personal data must not be logged; see lib/log.ts):`);
    for (const f of findings.slice(0, 50)) console.error(`  ${f.file}:${f.line}  ${JSON.stringify(f.found)}\n    ${f.excerpt}`);
    if (findings.length > 50) console.error(`  … and ${findings.length - 50} more`);
    return 1;
  }
  console.log(`ok   e2e log scan: ${lines} lines in ${files.length} file(s) under ${path.relative(process.cwd(), dir)} (last written ${written}), ${people.length} demo residents and every name the generator can make: none found`);
  return 0;
}

process.exitCode = main();
