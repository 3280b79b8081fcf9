// Which modules browser code reaches: a walk of value imports (`import type` brings nothing to a
// bundle) from given entry files, for tests that keep things out of client bundles.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..');
const IMPORT = /^(?:import|export)\s+(?!type\b)([^;]*?)\s+from\s+'([^']+)'/gms;

function resolve(spec: string, from: string): string | null {
  const base = spec.startsWith('@/') ? path.join(ROOT, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : null;
  if (base === null) return `package:${spec}`;
  for (const ext of ['.ts', '.tsx', '/index.ts', '/index.tsx']) if (existsSync(base + ext)) return base + ext;
  return null;
}

/** Every project file (absolute paths) and package the entries reach, each with the chain that reaches it. */
export function reachedFrom(entries: readonly string[]): { files: string[]; packages: Map<string, string[]> } {
  const via = new Map<string, string | null>();
  const queue: [string, string | null][] = entries.map((e) => [path.resolve(ROOT, e), null]);
  while (queue.length > 0) {
    const [file, parent] = queue.shift()!;
    if (via.has(file)) continue;
    via.set(file, parent);
    if (file.startsWith('package:')) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const what = match[1]!.trim();
      const names = what.startsWith('{') ? what.slice(1, -1).split(',').map((n) => n.trim()).filter(Boolean) : [];
      if (names.length > 0 && names.every((n) => n.startsWith('type '))) continue;
      const target = resolve(match[2]!, file);
      if (target) queue.push([target, file]);
    }
  }
  const chain = (file: string) => {
    const out: string[] = [];
    for (let at: string | null | undefined = file; at; at = via.get(at)) out.push(at.startsWith('package:') ? at : path.relative(ROOT, at));
    return out;
  };
  const packages = new Map<string, string[]>();
  const files: string[] = [];
  for (const file of via.keys()) {
    if (file.startsWith('package:')) packages.set(file.slice('package:'.length), chain(file));
    else files.push(file);
  }
  return { files, packages };
}
