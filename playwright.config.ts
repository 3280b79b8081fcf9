import { defineConfig, devices } from '@playwright/test';

// Each worker runs its own portal (e2e/portal-server.ts) at E2E_PORT + 10·n; worktrees running e2e side
// by side pick their own E2E_PORT. e2e/utils.ts's `test` gives every spec file a fresh copy of the
// seed world that e2e/global-setup.ts makes after the build.
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
const PORT = BASE_PORT + 10 * Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const baseURL = `http://localhost:${PORT}`;

// Debian's Chromium (scripts/ensure-chromium.sh); Playwright's own browser downloads fail here.
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const isCI = process.env.CI === 'true';

export default defineConfig({
  testDir: './e2e',
  // Files are shared out among the workers; a file's tests run in order, in one worker.
  fullyParallel: false,
  // Three: measured idle on the 2-core machine, 434 s against 543 s with two (the specs wait on
  // their servers as much as they compute).
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: isCI ? 1 : 0,
  globalSetup: './e2e/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The JSON report gives npm test's table its counts (scripts/test-all.ts); under .data/, since
  // Playwright empties test-results/ when it starts.
  reporter: [['list'], ['json', { outputFile: '.data/test-reports/e2e.json' }], ...(isCI ? [] : [['html', { open: 'never' }] as const])],
  use: {
    baseURL,
    // The suite reads English: browsers ask for it, and so do its API calls (Playwright's request
    // contexts send no Accept-Language, and the portal's default is Swedish). e2e/language.spec.ts
    // asks for Swedish where it means to.
    locale: 'en-US',
    extraHTTPHeaders: { 'Accept-Language': 'en-US,en;q=0.9' },
    trace: 'retain-on-failure',
    launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
});
