import { expect, test } from './utils';

test('the home page shows its heading', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Laundry booking portal' })).toBeVisible();
});

test('the health endpoint reports the embedded database and the sandbox', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: 'ok', database: 'pglite', service: 'sandbox' });
  expect(response.headers()['cache-control']).toBe('no-store');
});
