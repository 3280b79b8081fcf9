import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM module without types (ESLint loads it directly).
import { LAYERS as layers, layerOf as layerOfModule } from './layers.mjs';

const LAYERS = layers as { name: string; paths: string[] }[];
const layerOf = layerOfModule as (file: string) => number | undefined;
const ROOT = path.join(import.meta.dirname, '..');

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...sourcesUnder(rel));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(rel);
  }
  return out;
}

describe('layers (eslint/layers.mjs)', () => {
  it('puts every source file of the portal in a layer (a file in none would be checked by no zone)', () => {
    const files = [...['lib', 'app', 'components', 'i18n', 'shared', 'sandbox'].flatMap(sourcesUnder), 'instrumentation.ts', 'proxy.ts'];
    expect(files.length).toBeGreaterThan(300);
    expect(files.filter((f) => layerOf(f) === undefined)).toEqual([]);
  });

  it('names each path once, and only paths that exist', () => {
    const paths = LAYERS.flatMap((l) => l.paths);
    expect(new Set(paths).size).toBe(paths.length);
    const missing = paths.filter((p) => {
      try {
        statSync(path.join(ROOT, p));
        return false;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });

  it('knows a folder from a file that shares its prefix', () => {
    expect(layerOf('lib/db/schema/mirror.ts')).toBe(LAYERS.findIndex((l) => l.name === 'infrastructure'));
    expect(layerOf('lib/api/route.ts')).toBe(LAYERS.findIndex((l) => l.name === 'edge'));
    expect(layerOf('lib/apiary.ts')).toBeUndefined();
  });
});
