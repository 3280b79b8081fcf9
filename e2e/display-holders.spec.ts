import { randomUUID } from 'node:crypto';
import { openStream } from './raw-http';
import { BASE_URL, expect, firstSystem, PORT, test } from './utils';

// Issue 47, item 8: a display hangs on a wall, so its address is not much of a secret. Holding its
// three live streams from elsewhere left the real screen with `429 tooManyStreams`, polling. Each
// foreign holder here has a loopback address of its own (127.0.0.x: a separate client address).
test('three foreign holders of a display’s address cannot take the real screen’s live stream', async ({ page, browser, signedInAs }) => {
  test.setTimeout(120_000);
  await signedInAs('manager');
  const { system } = await firstSystem(page);
  const created = await page.request.post('/api/displays', {
    data: { deviceId: system.deviceId, name: `Held ${randomUUID().slice(0, 6)}` },
    headers: { 'idempotency-key': `e2e-display-holders-${randomUUID()}`, origin: BASE_URL },
  });
  expect(created.status()).toBe(201);
  const path = new URL(((await created.json()) as { url: string }).url).pathname;

  const held: { close: () => void }[] = [];
  try {
    for (const foreign of ['127.0.0.91', '127.0.0.92', '127.0.0.93']) {
      // Each holds all it may: three streams, and a fourth is refused.
      for (let i = 0; i < 3; i += 1) {
        const stream = await openStream(PORT, `${path}/events`, foreign);
        held.push(stream);
        expect(stream.status, `${foreign} stream ${i + 1}`).toBe(200);
      }
      const fourth = await openStream(PORT, `${path}/events`, foreign);
      held.push(fourth);
      expect(fourth.status, `${foreign} stream 4`).toBe(429);
    }
    // The screen on the wall opens its page and gets its live stream.
    const screenContext = await browser.newContext();
    try {
      const screen = await screenContext.newPage();
      const stream = screen.waitForResponse((r) => r.url().includes('/events'));
      await screen.goto(new URL(path, BASE_URL).toString());
      expect((await stream).status()).toBe(200);
    } finally {
      await screenContext.close();
    }
  } finally {
    for (const stream of held) stream.close();
  }
});
