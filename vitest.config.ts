import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // `server-only` throws outside React Server Components; tests run server code directly.
      'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['node_modules/**', '.next/**', '.data/**', 'e2e/**'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Existing tests read English; the default (Swedish) is tested where locales are resolved.
    env: { LOG_LEVEL: 'silent', PORTAL_DEFAULT_LOCALE: 'en' },
  },
});
