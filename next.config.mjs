/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  // rate-limiter-flexible loads drizzle-orm with a computed import() that bundlers cannot follow.
  serverExternalPackages: ['@electric-sql/pglite', 'rate-limiter-flexible'],
  poweredByHeader: false,
  reactStrictMode: true,
  // Lint and typecheck run as their own npm scripts; the build should not repeat them.
  typescript: { ignoreBuildErrors: false },
  // Static files skip proxy.ts; they still get the headers that apply to every response.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    ];
  },
};

export default nextConfig;
