// The README and docs/ as a reader meets them: every relative link and image resolves (file and
// heading), every source path they name exists, the README stays a short front door, and every
// setting of lib/env.ts is in the configuration table.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import { describe, expect, it } from 'vitest';
import { envSchema } from '@/lib/env';

const ROOT = path.resolve(import.meta.dirname, '..');
const README_MAX_BYTES = 15 * 1024;
/** Paths the docs name as examples of files to create (adding a language), not as existing ones. */
const EXAMPLE_PATHS = new Set(['messages/nb.json']);
/** Folders of this repository whose files the docs name in code spans. */
const SOURCE_PATH = /^(?:app|lib|components|sandbox|shared|scripts|tests|e2e|i18n|messages|eslint|docs)\/[\w.()[\]/-]*$/;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

const files = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))];
const trees = new Map<string, Root>();
function treeOf(file: string): Root {
  let tree = trees.get(file);
  if (!tree) {
    tree = fromMarkdown(readFileSync(file, 'utf8'));
    trees.set(file, tree);
  }
  return tree;
}

function walk(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child, visit);
}

/** The anchors GitHub gives a file's headings (its slug rules, duplicates numbered). */
export function anchorsOf(tree: Root): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  walk(tree, (node) => {
    if (node.type === 'heading') anchors.add(slugger.slug(toString(node)));
  });
  return anchors;
}

/** What is wrong with a relative link (or image) of `file`, or null when it resolves. */
export function brokenLink(file: string, url: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return null;
  const [target = '', anchor] = url.split('#', 2);
  const resolved = target === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(target));
  if (!existsSync(resolved)) return `${url}: no such file`;
  if (anchor === undefined || anchor === '') return null;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return `${url}: an anchor into something that is not a Markdown file`;
  return anchorsOf(treeOf(resolved)).has(decodeURIComponent(anchor)) ? null : `${url}: no heading with that anchor in ${path.relative(ROOT, resolved)}`;
}

function linksOf(file: string): string[] {
  const urls: string[] = [];
  walk(treeOf(file), (node) => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') urls.push(node.url);
  });
  return urls;
}

function sourcePathsOf(file: string): string[] {
  const paths: string[] = [];
  walk(treeOf(file), (node) => {
    if (node.type === 'inlineCode' && SOURCE_PATH.test(node.value)) paths.push(node.value);
  });
  return paths;
}

describe('README.md and docs/', () => {
  it(`keeps the README a front door of at most ${README_MAX_BYTES} bytes, with the two commands`, () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'));
    expect(readme.byteLength).toBeLessThanOrEqual(README_MAX_BYTES);
    expect(readme.toString('utf8')).toContain('npm install && npm run demo');
    expect(readme.toString('utf8')).toContain('npm install && npm run dev');
    expect(readme.toString('utf8')).toContain('npm test');
    // The parser sees the links at all: the README links every document of docs/.
    expect(linksOf(path.join(ROOT, 'README.md')).filter((url) => url.startsWith('docs/')).length).toBeGreaterThanOrEqual(8);
  });

  it.each(files.map((file) => [path.relative(ROOT, file), file]))('%s: every relative link and image resolves', (_name, file) => {
    const links = linksOf(file);
    expect(links.map((url) => brokenLink(file, url)).filter((problem) => problem !== null)).toEqual([]);
  });

  it.each(files.map((file) => [path.relative(ROOT, file), file]))('%s: every source path it names exists', (_name, file) => {
    const missing = sourcePathsOf(file).filter((p) => !EXAMPLE_PATHS.has(p) && !existsSync(path.join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it('lists every setting of lib/env.ts in the configuration table of docs/operations.md', () => {
    const operations = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
    const table = operations.slice(operations.indexOf('## Configuration'), operations.indexOf('\n## ', operations.indexOf('## Configuration') + 1));
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    const missing = Object.keys(envSchema.in.shape).filter((name) => !rows.some((row) => row.split('|')[1]?.includes(`\`${name}\``)));
    expect(missing).toEqual([]);
  });
});

describe('the link check itself', () => {
  const readme = path.join(ROOT, 'README.md');
  const operations = path.join(ROOT, 'docs/operations.md');

  it('accepts links to files, folders and headings that exist, and leaves absolute URLs alone', () => {
    expect(brokenLink(readme, 'docs/operations.md')).toBeNull();
    expect(brokenLink(readme, 'docs/decisions/')).toBeNull();
    expect(brokenLink(readme, 'docs/operations.md#running-several-instances')).toBeNull();
    expect(brokenLink(operations, '#where-a-requests-time-goes')).toBeNull();
    expect(brokenLink(readme, 'https://example.org/nowhere.md#nothing')).toBeNull();
  });

  it('refuses a missing file, a missing heading, and an anchor into a folder', () => {
    expect(brokenLink(readme, 'docs/operation.md')).toMatch(/no such file/);
    expect(brokenLink(readme, 'docs/operations.md#running-many-instances')).toMatch(/no heading with that anchor/);
    expect(brokenLink(operations, '#nowhere')).toMatch(/no heading with that anchor/);
    expect(brokenLink(readme, 'docs/decisions/#top')).toMatch(/not a Markdown file/);
  });
});
