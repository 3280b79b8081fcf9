import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { BASE_URL, bookFirstSlotWithin36h, expect, firstSystem, test } from './utils';

async function createDisplay(request: APIRequestContext, deviceId: string, name: string): Promise<{ id: string; url: string }> {
  const response = await request.post('/api/displays', {
    data: { deviceId, name, showApartments: true },
    headers: { 'idempotency-key': `e2e-display-live-${randomUUID()}`, origin: BASE_URL },
  });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { display: { id: string }; url: string };
  // The address the manager used: the test's own portal.
  return { id: body.display.id, url: new URL(new URL(body.url).pathname, BASE_URL).toString() };
}

/** Opens the screen and waits until its event stream answered. */
async function openScreen(screen: Page, url: string): Promise<void> {
  const stream = screen.waitForResponse((r) => r.url().includes('/events') && r.status() === 200);
  await screen.goto(url);
  await stream;
}

test('a booking made in the portal shows on the display by its stream, without a poll; switching it off blanks it within seconds', async ({ page, browser, signedInAs }) => {
  test.setTimeout(180_000);
  await signedInAs('manager');
  const { system, resources } = await firstSystem(page);
  const display = await createDisplay(page.request, system.deviceId, `Live ${system.name}`);

  const screenContext = await browser.newContext({ locale: 'sv-SE' });
  const screen = await screenContext.newPage();
  await screen.clock.install();
  await openScreen(screen, display.url);
  await expect(screen.getByRole('heading', { level: 1, name: `Live ${system.name}` })).toBeVisible();
  // 40 s on the page's clock since the service was last read (at least): "updated 40 s ago" or more.
  await screen.clock.runFor(40_000);
  // From here no timer of the page runs: no read every 15 s. Only the stream can bring a change.
  await screen.clock.pauseAt((await screen.evaluate(() => Date.now())) + 1_000);
  const screenReads: number[] = [];
  screen.on('request', (r) => {
    if (r.url().endsWith('/screen')) screenReads.push(Date.now());
  });

  const bookingFrom = Date.now();
  const booked = await bookFirstSlotWithin36h(page.request, system.deviceId, resources, 'e2e-display-live');
  expect(booked, 'a bookable slot today or tomorrow with a resident who may book it').not.toBeNull();
  const timeZone = (system as { timeZone?: string }).timeZone ?? 'Europe/Stockholm';
  const time = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
  const label = `${time(booked!.slot.startMs)}–${time(booked!.slot.endMs)}`;
  await expect(screen.getByRole('listitem').filter({ hasText: label }).filter({ hasText: 'Bokad' }).first()).toBeVisible({ timeout: 10_000 });
  // The screen read its rooms because the stream said so, once the booking began (and never by a timer).
  expect(screenReads.length).toBeGreaterThan(0);
  expect(Math.min(...screenReads)).toBeGreaterThanOrEqual(bookingFrom);
  // The rooms just read hold the change: "updated" starts again from it, not from the service's last read.
  await expect(screen.getByRole('status')).toHaveText('Uppdaterad för 0 s sedan');

  // Switched off: the stream's last frame says so, still with no timer running.
  const revoked = await page.request.delete(`/api/displays/${display.id}`, { headers: { origin: BASE_URL } });
  expect(revoked.ok()).toBe(true);
  await expect(screen.getByText('Den här skärmen har stängts av.')).toBeVisible({ timeout: 5_000 });
  await screenContext.close();
});

test('cut off from the portal, the display says "offline since" and keeps its times; back, it catches up by itself', async ({ page, browser, signedInAs }) => {
  test.setTimeout(180_000);
  await signedInAs('manager');
  const { system, resources } = await firstSystem(page);
  const display = await createDisplay(page.request, system.deviceId, `Offline ${system.name}`);
  const screenContext = await browser.newContext({ locale: 'sv-SE' });
  const screen = await screenContext.newPage();
  await screen.clock.install();
  await openScreen(screen, display.url);

  // The portal is gone: no rooms, no stream, the network down, for ten minutes (simulated, in 10 s steps).
  const reads: number[] = [];
  let simulatedS = 0;
  screen.on('request', (r) => {
    if (r.url().endsWith('/screen')) reads.push(simulatedS);
  });
  await screen.route('**/display/**', (route) => route.abort());
  await screenContext.setOffline(true);
  for (let i = 0; i < 60; i++) {
    await screen.clock.runFor(10_000);
    simulatedS += 10;
    await screen.waitForTimeout(200);
  }
  await expect(screen.getByRole('status')).toContainText('Ingen kontakt sedan');
  await expect(screen.getByRole('heading', { level: 2, name: resources[0]!.name })).toBeVisible();
  // It asked less and less often: 30 s, 60 s, then every 2 minutes (not every 30 s, nor with each try
  // of the stream): 7 reads in the ten minutes, 2 or 3 in the last five.
  expect(reads.length, `reads at ${reads.join(', ')} s`).toBeLessThanOrEqual(9);
  const late = reads.filter((at) => at > 300).length;
  expect(late, `reads at ${reads.join(', ')} s`).toBeGreaterThanOrEqual(2);
  expect(late, `reads at ${reads.join(', ')} s`).toBeLessThanOrEqual(3);

  // Back: the stream reconnects (backoff) and the rooms are read again.
  await screenContext.setOffline(false);
  await screen.unroute('**/display/**');
  for (let i = 0; i < 20 && !(await screen.getByRole('status').textContent())?.includes('Uppdaterad för'); i++) {
    await screen.clock.runFor(10_000);
    await screen.waitForTimeout(300);
  }
  await expect(screen.getByRole('status')).toContainText('Uppdaterad för');
  await screenContext.close();
});

// The step once seen after midnight (listeners 9 → 22, heap 1.2 → 1.9 MB) was Playwright's own script:
// the first locator of the test, at midnight, put its injected script in the page (12 capture
// listeners on window for its hit-target checks, ~0.7 MB of heap). It is now put in before the first
// sample, and every sample (1 h, 6 h, 12 h, the last step before midnight, the first after, 6 h later,
// 24 h) must hold the first one's listeners and elements, and its heap within HEAP_SLACK (below).
test('over a simulated day of updates, across midnight and a DST change, the screen keeps steady memory and rolls over without a reload', async ({ page, browser, signedInAs }) => {
  test.setTimeout(480_000);
  await signedInAs('manager');
  const { system } = await firstSystem(page);
  const display = await createDisplay(page.request, system.deviceId, `Day ${system.name}`);
  const screenContext = await browser.newContext({ locale: 'sv-SE' });
  const screen = await screenContext.newPage();
  // Saturday 28 March 2026, 10:00 UTC: the EU's clocks go forward at 01:00 UTC the next night.
  const start = Date.parse('2026-03-28T10:00:00Z');
  await screen.clock.install({ time: start });
  // The page's zone and language, read once it has loaded (the system's zone may not be Stockholm's).
  let tz = 'Europe/Stockholm';
  let lang = 'sv-SE';
  const dayOf = (ms: number) => new Intl.DateTimeFormat(lang, { timeZone: tz, weekday: 'long', day: 'numeric', month: 'long' }).format(ms);

  // The portal, simulated: every read of the rooms gets a fresh strip for the page's own day and time;
  // every stream says one change and ends (the screen opens it again, as after a network break).
  let eventId = 1_000;
  await screen.route('**/screen', async (route) => {
    const now = await screen.evaluate(() => Date.now());
    const slots = Array.from({ length: 12 }, (_, i) => `<li class="slot s-free"><span class="t">${i}</span> <span class="st">Ledigt ${now % 997}</span></li>`).join('');
    const html = `<article class="room"><h2>Tvättstuga</h2><p class="now n-free">Ledigt nu</p><section class="day"><h3>I dag <span class="date">${dayOf(now)}</span></h3><ol class="strip">${slots}</ol></section></article>`;
    await route.fulfill({ contentType: 'application/json', body: JSON.stringify({ html, refreshedAt: new Date(now).toISOString(), nowMs: now }) });
  });
  await screen.route('**/events*', (route) => {
    eventId += 1;
    return route.fulfill({ contentType: 'text/event-stream', body: `retry: 2000\n\nid: ${eventId}\nevent: changed\ndata: {}\n\n` });
  });
  await screen.goto(display.url);
  // Playwright's injected script (its locators) goes in now, before any sample, not at midnight.
  await expect(screen.getByRole('heading', { level: 1, name: `Day ${system.name}` })).toBeVisible();
  ({ tz, lang } = await screen.evaluate(() => ({ tz: document.body.dataset.tz!, lang: document.body.dataset.lang! })));
  // Timers made from here on: the page's own setTimeout/setInterval, counted (created, fired, cleared).
  await screen.evaluate(() => {
    const w = window as unknown as { __timers: { pending: Set<number>; intervals: number } };
    w.__timers = { pending: new Set(), intervals: 0 };
    const st = window.setTimeout.bind(window);
    const ct = window.clearTimeout.bind(window);
    const si = window.setInterval.bind(window);
    window.setTimeout = ((fn: () => void, ms?: number) => {
      const id = st(() => {
        w.__timers.pending.delete(id);
        fn();
      }, ms);
      w.__timers.pending.add(id);
      return id;
    }) as typeof window.setTimeout;
    window.clearTimeout = ((id?: number) => {
      if (id !== undefined) w.__timers.pending.delete(id);
      ct(id);
    }) as typeof window.clearTimeout;
    window.setInterval = ((fn: () => void, ms?: number) => {
      w.__timers.intervals += 1;
      return si(fn, ms);
    }) as typeof window.setInterval;
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });

  const cdp = await screenContext.newCDPSession(screen);
  await cdp.send('Performance.enable');
  const measure = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
    const page = await screen.evaluate(() => {
      const timers = (window as unknown as { __timers: { pending: Set<number>; intervals: number } }).__timers;
      return { elements: document.getElementsByTagName('*').length, pending: timers.pending.size, intervals: timers.intervals };
    });
    return { nodes: m.Nodes!, listeners: m.JSEventListeners!, heap: m.JSHeapUsedSize!, ...page };
  };

  const STEP = 5 * 60_000;
  let fakeNow = start;
  let midnightStep = 0;
  const samples: Record<string, Awaited<ReturnType<typeof measure>>> = {};
  for (let step = 1; step <= 288; step++) {
    const dayBefore = dayOf(fakeNow);
    // Jumps: each due timer fires once (the clock's tick, the read, the stream's reconnect), as after a
    // busy five minutes; running every second of the day would take the test far longer than a day's worth.
    await screen.clock.fastForward(STEP);
    fakeNow += STEP;
    // Let the reads and streams the timers started finish in real time.
    await screen.waitForTimeout(40);
    if (!midnightStep && dayOf(fakeNow) !== dayBefore) {
      midnightStep = step;
      // Midnight: the date under the clock and the strip's day are the new day's, in the same document.
      await expect(screen.locator('#date')).toHaveText(dayOf(fakeNow));
      await expect(screen.locator('.day .date').first()).toHaveText(dayOf(fakeNow), { timeout: 10_000 });
      samples['just after midnight'] = await measure();
    }
    // Each measured at the same point of a step (right after it), so no read or stream is half-way.
    if (step === 12) samples['1 h'] = await measure();
    if (step === 72) samples['6 h'] = await measure();
    if (step === 144) samples['12 h'] = await measure();
    if (!midnightStep && dayOf(fakeNow + STEP) !== dayOf(fakeNow)) samples['before midnight'] = await measure();
    if (midnightStep && step === midnightStep + 72) samples['midnight + 6 h'] = await measure();
    if (step === 288) samples['24 h'] = await measure();
  }
  expect(midnightStep).toBeGreaterThan(0);
  await expect(screen.locator('.day .date').first()).toHaveText(dayOf(fakeNow), { timeout: 10_000 });
  console.log('display memory (simulated day):', JSON.stringify(samples));

  // Past the DST change: the clock shows the local time of summer time, not of winter time.
  // (The fake clock also flows with real time, a few minutes of it in this test: read the page's now.)
  const hm = (ms: number) => new Intl.DateTimeFormat(lang, { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
  const pageNow = await screen.evaluate(() => Date.now());
  expect(pageNow - fakeNow).toBeGreaterThanOrEqual(0);
  expect(pageNow - fakeNow).toBeLessThan(30 * 60_000);
  await expect(screen.locator('#clock')).toHaveText(new RegExp(`^(${hm(pageNow)}|${hm(pageNow + 60_000)})$`));
  expect(await screen.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

  // Bounded: from the first hour on, the same elements and listeners at every sample, no new
  // intervals, at most a read and a reconnect waiting, and the heap within HEAP_SLACK of the first
  // hour's. Measured (after forced GC, 5 runs): 18 listeners and 60 elements at every sample; heap
  // 1.82–1.88 MB at 1 h, then up to 69–178 KB higher at later samples, not steadily (one run fell
  // 61 KB from 6 h past midnight to 24 h; a bare page under the same clock and probes: +33 KB); the
  // drift is not explained yet. A screen that kept each read's rooms would add ~0.9 MB, one that kept
  // its streams' listeners ~1,000 listeners: both far outside.
  const HEAP_SLACK = 250_000;
  const first = samples['1 h']!;
  expect(Object.keys(samples)).toHaveLength(7);
  // CDP's Nodes also counts rooms swapped out and not yet swept (83 nodes each here): it moves between
  // the page's own and that plus one or two such, never more (a node leak would add 83 per read).
  const fewestNodes = Math.min(...Object.values(samples).map((x) => x.nodes));
  for (const [at, sample] of Object.entries(samples)) {
    expect.soft(sample.elements, `elements at ${at}`).toBe(first.elements);
    expect.soft(sample.listeners, `event listeners at ${at}`).toBe(first.listeners);
    expect.soft(sample.heap, `heap at ${at}`).toBeLessThanOrEqual(first.heap + HEAP_SLACK);
    expect.soft(sample.nodes, `DOM nodes at ${at}`).toBeLessThanOrEqual(fewestNodes + 2 * 83 + 10);
    expect.soft(sample.intervals, `intervals made by ${at}`).toBe(0);
    expect.soft(sample.pending, `timers waiting at ${at}`).toBeLessThanOrEqual(3);
  }
  // No growth in the second half of the day either (a leak per update would show as a slope).
  expect(samples['24 h']!.heap).toBeLessThanOrEqual(samples['just after midnight']!.heap + HEAP_SLACK);
  // The day was one of updates: the stream was opened again and again, each time with a change.
  expect(eventId).toBeGreaterThan(1_000 + 100);
  await screenContext.close();
});
