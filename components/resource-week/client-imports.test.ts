import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

// The room week page's client entry points (its page, the portal layout's and the root layout's).
const ENTRIES = [
  'components/resource-week/bookable-resource-week.tsx',
  'components/feeds/feed-section.tsx',
  'components/booking/live-events.tsx',
  'components/providers.tsx',
  'components/shell/language-switcher.tsx',
];

const ROOT = path.resolve(__dirname, '../..');
// A value import or re-export (`import type` and all-`type` braces bring nothing to the bundle).
const IMPORT = /^(?:import|export)\s+(?!type\b)([^;]*?)\s+from\s+'([^']+)'/gms;

function resolve(spec: string, from: string): string | null {
  const base = spec.startsWith('@/') ? path.join(ROOT, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : null;
  if (base === null) return `package:${spec}`;
  for (const ext of ['.ts', '.tsx', '/index.ts', '/index.tsx']) if (existsSync(base + ext)) return base + ext;
  return null;
}

/** Every package the entries reach through value imports, with the chain that reaches it. */
function packagesReached(): Map<string, string[]> {
  const via = new Map<string, string | null>();
  const queue: [string, string | null][] = ENTRIES.map((e) => [path.join(ROOT, e), null]);
  while (queue.length > 0) {
    const [file, parent] = queue.shift()!;
    if (via.has(file)) continue;
    via.set(file, parent);
    if (file.startsWith('package:')) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const what = match[1]!.trim();
      if (what.startsWith('{') && what.slice(1, -1).split(',').map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith('type '))) continue;
      const target = resolve(match[2]!, file);
      if (target) queue.push([target, file]);
    }
  }
  const chains = new Map<string, string[]>();
  for (const file of via.keys()) {
    if (!file.startsWith('package:')) continue;
    const chain: string[] = [];
    for (let at: string | null | undefined = file; at; at = via.get(at)) chain.push(path.relative(ROOT, at));
    chains.set(file.slice('package:'.length), chain);
  }
  return chains;
}

it("keeps zod, date-fns and server modules out of the room week page's browser bundle (issue 34)", () => {
  const reached = packagesReached();
  // Fails with the import chain, e.g. zod <- lib/booking-rules/rule-set.ts <- … <- the page.
  for (const banned of ['zod', 'date-fns', '@date-fns/tz', 'drizzle-orm', 'server-only']) {
    expect(reached.get(banned) ?? null, banned).toBeNull();
  }
  expect(reached.has('react')).toBe(true);
});
