// Lighthouse (desktop preset, performance only) in Debian's Chromium, signed in by cookie, and
// the first-load JavaScript of a page: every script the page's HTML loads, gzipped.
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { runToEnd } from './proc';

export interface LighthouseResult {
  score: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
}

export async function runLighthouse(url: string, cookie: string, outDir: string, chromePath: string): Promise<LighthouseResult> {
  const output = path.join(outDir, 'lighthouse.json');
  await runToEnd(
    'lighthouse',
    process.execPath,
    [
      path.resolve('node_modules/lighthouse/cli/index.js'),
      url,
      '--preset=desktop',
      '--only-categories=performance',
      '--output=json',
      `--output-path=${output}`,
      '--quiet',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
      `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
    ],
    { env: { ...process.env, CHROME_PATH: chromePath }, logFile: path.join(outDir, 'lighthouse.log') },
  );
  const report = JSON.parse(await readFile(output, 'utf8')) as {
    categories: { performance: { score: number | null } };
    audits: Record<string, { numericValue?: number }>;
    runtimeError?: { message: string };
  };
  if (report.runtimeError) throw new Error(`lighthouse: ${report.runtimeError.message}`);
  return {
    score: Math.round((report.categories.performance.score ?? 0) * 100),
    lcpMs: report.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    fcpMs: report.audits['first-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: report.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    cls: report.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
  };
}

/** Sum of the gzipped sizes of the external scripts a page's HTML loads (what Next calls first-load JS). */
export async function firstLoadJs(html: string, baseUrl: string): Promise<{ gzipBytes: number; rawBytes: number; scripts: number }> {
  const sources = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)) {
    // A browser that runs modules never downloads a `nomodule` script (Next's legacy polyfills).
    if (/\bnomodule\b/i.test(match[0])) continue;
    sources.add(match[1]!.replace(/&amp;/g, '&'));
  }
  // Preloaded chunks (rel=preload as=script) load at once too.
  for (const match of html.matchAll(/<link\b[^>]*\brel="preload"[^>]*\bas="script"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(match[0])?.[1];
    if (href) sources.add(href.replace(/&amp;/g, '&'));
  }
  let gzipBytes = 0;
  let rawBytes = 0;
  for (const src of sources) {
    const response = await fetch(new URL(src, baseUrl));
    if (!response.ok) throw new Error(`script ${src} answered ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    rawBytes += body.length;
    gzipBytes += gzipSync(body, { level: 9 }).length;
  }
  return { gzipBytes, rawBytes, scripts: sources.size };
}
