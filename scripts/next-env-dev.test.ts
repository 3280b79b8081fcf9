import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import { devTypeOptions, writeDevNextEnv } from './next-env-dev.mjs';

// What `next build` leaves in next-env.d.ts; `next dev` wants .next/dev/types instead.
const built = [
  '/// <reference types="next" />',
  '/// <reference types="next/image-types/global" />',
  'import "./.next/types/routes.d.ts";',
  'import "./.next/types/root-params.d.ts";',
  '',
  '// NOTE: This file should not be edited',
  '// see https://nextjs.org/docs/app/api-reference/config/typescript for more information.',
  '',
].join('\n');

describe('predev next-env.d.ts (issue 31)', () => {
  it('turns the build’s next-env.d.ts into the one next dev writes', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'next-env-'));
    const file = path.join(dir, 'next-env.d.ts');
    writeFileSync(file, built);
    expect(await writeDevNextEnv({ ...devTypeOptions, baseDir: dir })).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(built.replaceAll('./.next/types/', './.next/dev/types/'));
  });

  it('leaves the dev content untouched, so nothing in the project changes when next dev starts', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'next-env-'));
    const file = path.join(dir, 'next-env.d.ts');
    writeFileSync(file, built.replaceAll('./.next/types/', './.next/dev/types/'));
    const before = statSync(file).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    await writeDevNextEnv({ ...devTypeOptions, baseDir: dir });
    expect(statSync(file).mtimeMs).toBe(before);
  });

  it('runs before every dev start', () => {
    expect(packageJson.scripts.predev).toBe('node scripts/next-env-dev.mjs');
  });
});
