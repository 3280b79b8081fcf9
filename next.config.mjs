import os from 'node:os';
import process from 'node:process';
import createNextIntlPlugin from 'next-intl/plugin';

// next-intl finds the request's language and catalogue in i18n/request.ts. The catalogues are
// precompiled at build time (issue 34, decision 033): the browser then formats messages with
// use-intl's small `format-only` runtime instead of shipping the ICU parser (about 10 kB gzip of
// every page's first-load JS). Only what Next bundles sees compiled catalogues; tests and scripts
// (tsx) read messages/*.json as they are, with the full formatter.
const withNextIntl = createNextIntlPlugin({
  requestConfig: './i18n/request.ts',
  experimental: { messages: { path: './messages', format: 'json', locales: 'infer', precompile: true } },
});

/**
 * Every address this machine answers at, as the host names `allowedDevOrigins` compares: the
 * loopbacks, each network interface's address (IPv6 in brackets, as a URL writes it) and the
 * machine's name. Next 16's dev server refuses its HMR socket and scripts to any origin it does not
 * know, so `npm run dev` opened at http://127.0.0.1:PORT or at the "Network:" address Next prints
 * would never hydrate (issue 30). Only this machine's own addresses: another site is still refused.
 * @param {ReturnType<typeof os.networkInterfaces>} [interfaces]
 * @param {string} [hostname]
 * @returns {string[]}
 */
export function localDevOrigins(interfaces = os.networkInterfaces(), hostname = os.hostname()) {
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]']);
  for (const addresses of Object.values(interfaces)) {
    for (const { address, family } of addresses ?? []) {
      // Link-local IPv6 carries a zone ("fe80::1%eth0") that never appears in an Origin.
      if (family === 'IPv6' || family === 6) {
        if (!address.includes('%')) hosts.add(`[${address.toLowerCase()}]`);
      } else hosts.add(address);
    }
  }
  if (hostname) hosts.add(hostname.toLowerCase());
  return [...hosts];
}
/** The CSP of non-HTML answers; lib/security/headers.test.ts checks it equals contentSecurityPolicy's. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  // rate-limiter-flexible loads drizzle-orm with a computed import() that bundlers cannot follow.
  // prom-client is loaded from node_modules like pino (which Next keeps external by default): the
  // metrics then live in one copy of the library, on the one registry of lib/observability/metrics.ts.
  serverExternalPackages: ['@electric-sql/pglite', 'rate-limiter-flexible', 'prom-client'],
  poweredByHeader: false,
  // Dev only: the dev server answers the browser at any of this machine's addresses.
  allowedDevOrigins: localDevOrigins(),
  // forbidden() and app/forbidden.tsx: a system the manager may not see is a 403 page, not a bare 404.
  experimental: {
    authInterrupts: true,
    // Next's dev server writes every server and browser console line to .next/dev/logs for its MCP
    // endpoint; after a dev restart that file was seen to drive a reload loop of the open page
    // (issue 15; docs/development.md, "The dev server"). The portal does not use the MCP endpoint.
    mcpServer: false,
  },
  reactStrictMode: true,
  // The build type-checks (it also checks the route types it generates), except for `npm run demo`,
  // which only wants to run the portal: its type check took 41 of a first build's 93 s (issue 30).
  typescript: { ignoreBuildErrors: process.env.PORTAL_BUILD_TYPECHECK === '0' },
  // Static files skip proxy.ts; they still get the headers that apply to every response.
  // Calendar feeds and displays are left out: their handlers answer Referrer-Policy: no-referrer, which a
  // header here would replace (issue 33). Route handlers' automatic 405 answers pass no code of
  // ours, so the API's CSP (lib/security/headers.ts, nonce-less) is set here for /api and /sandbox.
  async headers() {
    return [
      {
        source: '/api/:path*',
        // A config header replaces the route's own: an e-mail's HTML part keeps its sandbox policy.
        missing: [{ type: 'query', key: 'file', value: 'html' }],
        headers: [{ key: 'Content-Security-Policy', value: API_CSP }],
      },
      {
        source: '/sandbox/:path*',
        headers: [{ key: 'Content-Security-Policy', value: API_CSP }],
      },
      {
        source: '/:path((?!feeds/|display/).*)',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    ];
  },
};

export default withNextIntl(nextConfig);
