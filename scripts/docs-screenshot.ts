// npx tsx scripts/docs-screenshot.ts --base-url http://localhost:3000 — the README's screenshot
// (docs/images/week-grid.png): signs in as the demo manager through the sign-in form, opens the
// first system's first laundry room and photographs its week grid in English, in Debian's Chromium.
// Run it against a demo portal (`npm run dev`, or `next start` with DEMO_MODE=1) whose first load is done.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';

const { values: args } = parseArgs({
  options: {
    'base-url': { type: 'string', default: 'http://localhost:3000' },
    out: { type: 'string', default: path.resolve(import.meta.dirname, '../docs/images/week-grid.png') },
    width: { type: 'string', default: '1200' },
    height: { type: 'string', default: '900' },
    chrome: { type: 'string', default: '/usr/bin/chromium' },
  },
});
const base = args['base-url'];

const browser = await chromium.launch({ executablePath: args.chrome, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ locale: 'en-US', viewport: { width: Number(args.width), height: Number(args.height) } });
  // A development server compiles each page on its first visit.
  page.setDefaultTimeout(120_000);
  await page.goto(`${base}/sign-in`);
  await page.getByLabel(/e-mail/i).fill('manager@example.com');
  await page.getByLabel(/password/i).fill('portal-demo');
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.waitForURL((url) => url.pathname === '/systems');
  await page.locator('main a[href^="/systems/"]').first().click();
  // A laundry room (Tvättstuga) rather than a drying room, when the system has one.
  const rooms = page.locator('main a[href*="/resources/"]');
  const laundry = rooms.filter({ hasText: /tvättstuga/i });
  await rooms.first().waitFor();
  await ((await laundry.count()) > 0 ? laundry : rooms).first().click();
  await page.getByRole('region', { name: /week/i }).first().waitFor();
  // Next's development-tools button is not part of the portal.
  await page.evaluate(() => document.querySelector('nextjs-portal')?.remove());
  await page.screenshot({ path: args.out });
  console.log(`wrote ${args.out} from ${page.url()}`);
} finally {
  await browser.close();
}
