// predev: writes next-env.d.ts as `next dev` wants it, before `next dev` starts (issue 31).
// `next build` points next-env.d.ts at .next/types, `next dev` at .next/dev/types; the first dev start
// after a build rewrote the file in the project while the dev server was starting and watching it.
// With the dev content already in place, Next finds nothing to change and writes nothing.
// Next's own writer makes the content, so it stays what the installed Next expects (and it leaves an
// unchanged file untouched).
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');

/** The options `next dev` passes for this project (next.config.mjs sets none of them). */
export const devTypeOptions = {
  baseDir: root,
  distDir: path.join('.next', 'dev'),
  imageImportsEnabled: true,
  hasPagesDir: false,
  hasAppDir: true,
  strictRouteTypes: false,
  typedRoutes: false,
};

export async function writeDevNextEnv(options = devTypeOptions) {
  const require = createRequire(import.meta.url);
  let writer;
  try {
    writer = require('next/dist/lib/typescript/writeAppTypeDeclarations.js').writeAppTypeDeclarations;
  } catch {
    return false; // another Next: it writes the file itself, as before
  }
  await writer(options);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeDevNextEnv();
}
