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
    // Both cores (issue 46: one worker was the default on two). VITEST_MAX_WORKERS to measure others.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    // Migrations once per run: the template databases each test file's database is copied from.
    globalSetup: ['./tests/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Existing tests read English; the default (Swedish) is tested where locales are resolved.
    env: { LOG_LEVEL: 'silent', PORTAL_DEFAULT_LOCALE: 'en' },
  },
});
