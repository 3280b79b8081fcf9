import createNextIntlPlugin from 'next-intl/plugin';

// next-intl finds the request's language and catalogue in i18n/request.ts.
const withNextIntl = createNextIntlPlugin('./i18n/request.ts');

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
  // forbidden() and app/forbidden.tsx: a system the manager may not see is a 403 page, not a bare 404.
  experimental: {
    authInterrupts: true,
    // Next's dev server writes every server and browser console line to .next/dev/logs for its MCP
    // endpoint; after a dev restart that file was seen to drive a reload loop of the open page
    // (issue 15; docs/development.md, "The dev server"). The portal does not use the MCP endpoint.
    mcpServer: false,
  },
  reactStrictMode: true,
  // Lint and typecheck run as their own npm scripts; the build should not repeat them.
  typescript: { ignoreBuildErrors: false },
  // Static files skip proxy.ts; they still get the headers that apply to every response.
  // Calendar feeds are left out: their handler answers Referrer-Policy: no-referrer, which a
  // header here would replace (issue 33). Route handlers' automatic 405 answers pass no code of
  // ours, so the API's CSP (lib/security/headers.ts, nonce-less) is set here for /api and /sandbox.
  async headers() {
    return [
      {
        source: '/api/:path*',
        headers: [{ key: 'Content-Security-Policy', value: API_CSP }],
      },
      {
        source: '/sandbox/:path*',
        headers: [{ key: 'Content-Security-Policy', value: API_CSP }],
      },
      {
        source: '/:path((?!feeds/).*)',
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
