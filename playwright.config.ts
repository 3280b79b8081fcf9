import { defineConfig, devices } from '@playwright/test';

// Worktrees running e2e side by side pick their own port with E2E_PORT.
const PORT = Number(process.env.E2E_PORT ?? 3100);
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
  fullyParallel: false,
  workers: 1,
  retries: isCI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: isCI ? [['list']] : [['list'], ['html', { open: 'never' }]],
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
  webServer: {
    command: `bash scripts/e2e-server.sh ${PORT}`,
    url: `${baseURL}/api/health`,
    timeout: 600_000,
    reuseExistingServer: !isCI,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
