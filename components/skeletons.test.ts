import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function loadingFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return loadingFiles(full);
    return name === 'loading.tsx' ? [full] : [];
  });
}

function resolveImport(specifier: string): string | null {
  if (!specifier.startsWith('@/')) return null;
  for (const ext of ['.tsx', '.ts']) {
    const file = path.join(ROOT, specifier.slice(2) + ext);
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      // try the next extension
    }
  }
  return null;
}

// A loading boundary that imports from a client module ships that module's whole client graph
// with the boundary: the resource page's loading.tsx once carried React Query and the slot grid a
// second time (and the system page's, the heatmap) in the page's first-load JavaScript.
describe('loading boundaries', () => {
  const files = loadingFiles(path.join(ROOT, 'app'));

  it('exist', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files.map((f) => [path.relative(ROOT, f), f]))('%s imports no client component', (_, file) => {
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/from '([^']+)'/g)) {
      const target = resolveImport(specifier!);
      if (!target) continue;
      expect(readFileSync(target, 'utf8').trimStart().startsWith("'use client'"), `${specifier} is a client module`).toBe(false);
    }
  });
});
