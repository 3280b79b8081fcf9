import { randomUUID } from 'node:crypto';
import { rawSignIn } from './raw-http';
import { expect, PORT, test, uniqueEmail } from './utils';

/** Per (account, address) attempts in 15 minutes and the account's day backstop (lib/auth/throttle.ts, not importable here). */
const PAIR_ATTEMPTS = 5;
const ACCOUNT_DAY_ATTEMPTS = 100;

// Issue 47, item 7: one typo by the owner at their usual address, then 110 wrong tries from 22
// other addresses, and the owner's right password at the usual address was "Throttled" for up to
// a day. Each client here has a loopback address of its own (127.0.0.x: separate socket addresses
// to the portal, no trusted proxy), all outside what other specs use.
test('a spray from 22 addresses after the owner’s typo cannot lock the owner out at their usual address', async ({ page, signedInAs }) => {
  test.setTimeout(300_000);
  // A fresh account, so no other spec's sign-ins count for it.
  await signedInAs('admin');
  const owner = { name: `Spray Owner ${randomUUID().slice(0, 6)}`, email: uniqueEmail('spray-owner'), password: 'e2e-password-123' };
  await page.goto('/admin/managers');
  const form = page.getByRole('region', { name: 'New account' });
  await form.getByLabel('Name', { exact: true }).fill(owner.name);
  await form.getByLabel('E-mail').fill(owner.email);
  await form.getByLabel('Password', { exact: true }).fill(owner.password);
  await form.getByLabel('Role').selectOption('manager');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(form.getByRole('status')).toHaveText(`Created manager ${owner.name} (${owner.email}).`);

  const home = '127.0.0.50';
  // The owner's usual address: signed in from before, then one typo there.
  expect((await rawSignIn(PORT, owner.email, owner.password, home)).error).toBeNull();
  expect((await rawSignIn(PORT, owner.email, 'a typo, just once', home)).error).toBe('CredentialsSignin');
  // The spray: the pair limit's worth of wrong passwords from each of 22 other addresses, 110 in all.
  const sprayers = Array.from({ length: 22 }, (_, i) => `127.0.0.${51 + i}`);
  expect(sprayers.length * PAIR_ATTEMPTS).toBeGreaterThan(ACCOUNT_DAY_ATTEMPTS);
  for (const address of sprayers) {
    for (let i = 0; i < PAIR_ATTEMPTS; i += 1) await rawSignIn(PORT, owner.email, `guess-${address}-${i}`, address);
  }
  // The owner's right password at the usual address signs in.
  expect((await rawSignIn(PORT, owner.email, owner.password, home)).error).toBeNull();
  // The backstop still stops a sprayer, even with the right password; a fresh address still may try.
  expect((await rawSignIn(PORT, owner.email, owner.password, sprayers[0]!)).error).toBe('Throttled');
  expect((await rawSignIn(PORT, owner.email, owner.password, '127.0.0.80')).error).toBeNull();
});
