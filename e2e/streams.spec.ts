import { expect, test, BASE_URL } from './utils';

/** Opens /api/events with a cookie header; resolves with the reader once the stream answered. */
async function openStream(cookie: string, controller: AbortController) {
  const response = await fetch(`${BASE_URL}/api/events`, { headers: { cookie, accept: 'text/event-stream' }, signal: controller.signal });
  expect(response.status).toBe(200);
  return response.body!.getReader();
}

/** Reads a stream until it ends or `ms` pass; returns the text read. */
async function readFor(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<{ text: string; done: boolean }> {
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + ms;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return { text, done: false };
    const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
    if (chunk === null) return { text, done: false };
    if (chunk.done) return { text, done: true };
    text += decoder.decode(chunk.value, { stream: true });
  }
}

// Issue 33, item 3: one manager session opened 400 streams, all accepted, and slowed everyone.
test('one session opening 50 event streams keeps the newest 10; the older ones end as superseded', async ({ context, signedInAs }) => {
  test.setTimeout(120_000);
  await signedInAs('manager');
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const controller = new AbortController();
  try {
    const readers = [];
    for (let i = 0; i < 50; i += 1) readers.push(await openStream(cookie, controller));
    const results = await Promise.all(readers.map((r) => readFor(r, 3_000)));
    const superseded = results.filter((r) => r.done && r.text.includes('event: end\ndata: {"reason":"superseded"}'));
    expect(superseded).toHaveLength(40);
    // The ten newest are open and alive.
    expect(results.slice(-10).every((r) => !r.done)).toBe(true);
    expect(results.slice(0, 40).every((r) => r.done)).toBe(true);
  } finally {
    controller.abort();
  }
});

test('a tab whose stream was superseded says so and stays closed', async ({ page, context, signedInAs }) => {
  test.setTimeout(120_000);
  await signedInAs('manager');
  const live = page.waitForResponse((r) => r.url().includes('/api/events'));
  await page.goto('/systems');
  await live;
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const controller = new AbortController();
  let opened = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/events')) opened += 1;
  });
  try {
    // Ten newer streams of the same session: the tab's own is the oldest.
    for (let i = 0; i < 10; i += 1) await openStream(cookie, controller);
    await expect(page.getByRole('status').filter({ hasText: 'Live updates stopped in this tab' })).toBeVisible();
    const before = opened;
    await page.waitForTimeout(4_000);
    // No reconnect loop.
    expect(opened).toBe(before);
  } finally {
    controller.abort();
  }
});
