import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DISPLAY_SCRIPT, renderRooms } from './render';
import type { DisplayRoom, DisplayScreen } from './screen';

type Listener = (event: { data?: string; lastEventId?: string }) => void;

/** An EventSource the test drives: it says when it opened, changed, broke or ended. */
class FakeSource {
  static all: FakeSource[] = [];
  readonly listeners = new Map<string, Set<Listener>>();
  closed = false;
  constructor(readonly url: string) {
    FakeSource.all.push(this);
  }
  addEventListener(type: string, fn: Listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(fn);
  }
  removeEventListener(type: string, fn: Listener) {
    this.listeners.get(type)?.delete(fn);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, event: { data?: string; lastEventId?: string } = {}) {
    if (this.closed) return;
    for (const fn of [...(this.listeners.get(type) ?? [])]) fn(event);
  }
  get listenerCount() {
    return [...this.listeners.values()].reduce((n, set) => n + set.size, 0);
  }
  static latest() {
    return FakeSource.all.at(-1)!;
  }
}

const TEXTS = { updated: 'Uppdaterad för # s sedan', updatedMinutes: 'Uppdaterad för # min sedan', offline: 'Ingen kontakt sedan #', off: 'Avstängd', page: 'Sida # av %' };

/**
 * Runs the display's script against a stand-in page: elements by id, the body's data, a fetch the
 * test answers (online: the rooms; offline: a network error) and FakeSource as EventSource.
 */
function openScreen() {
  type Element = { textContent: string; className: string; innerHTML: string; hidden: boolean; style: { cssText: string }; querySelectorAll: () => never[] };
  const elements = new Map<string, Element>();
  const byId = (id: string) => {
    if (!elements.has(id)) elements.set(id, { textContent: '', className: '', innerHTML: '', hidden: false, style: { cssText: '' }, querySelectorAll: () => [] });
    return elements.get(id)!;
  };
  const documentListeners: string[] = [];
  const body = {
    dataset: { texts: JSON.stringify(TEXTS), tz: 'Europe/Stockholm', lang: 'sv-SE', refreshed: String(Date.now()), every: '15', event: '7', v: 'abc' },
    innerHTML: '',
    className: '',
    style: { fontSize: '' },
    classList: { add: vi.fn(), remove: vi.fn() },
  };
  const document = { body, hidden: false, getElementById: byId, addEventListener: (type: string) => documentListeners.push(type) };
  const state = { online: true, reads: [] as number[], pageStatus: 200, pageReads: 0, refreshedAt: null as number | null };
  const location = { pathname: '/display/tok', reload: vi.fn() };
  const fetch = (url: string): Promise<Response> => {
    if (url === location.pathname) {
      state.pageReads += 1;
      return Promise.resolve(new Response('<!doctype html>', { status: state.pageStatus }));
    }
    state.reads.push(Date.now());
    if (!state.online) return Promise.reject(new TypeError('Failed to fetch'));
    return Promise.resolve(new Response(JSON.stringify({ html: `<p>${Date.now()}</p>`, refreshedAt: new Date(state.refreshedAt ?? Date.now()).toISOString() }), { status: 200 }));
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the script is a string by design (decision 029)
  const run = new Function('document', 'location', 'fetch', 'EventSource', 'window', DISPLAY_SCRIPT) as (...args: unknown[]) => void;
  // A window under a tablet's width: no paging (the e2e display specs page in Chromium).
  run(document, location, fetch, FakeSource, { EventSource: FakeSource, innerWidth: 375, addEventListener: vi.fn() });
  return { state, byId, body, documentListeners, location };
}

const START = Date.parse('2026-03-28T10:00:00Z');

beforeEach(() => {
  FakeSource.all = [];
  vi.useFakeTimers({ now: START });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the display script', () => {
  it('offline, asks again after 30 s, 60 s, then every 2 minutes (a broken stream adds no read), and every 15 s again once back', async () => {
    const screen = openScreen();
    screen.state.online = false;
    for (let s = 0; s < 600; s += 5) {
      await vi.advanceTimersByTimeAsync(5_000);
      // The stream fails too, each time it is tried: the first break asks at once, the later ones not.
      FakeSource.latest().emit('error');
    }
    const gaps = screen.state.reads.map((at, i, all) => (i === 0 ? at - START : at - all[i - 1]!) / 1000);
    expect(gaps).toEqual([5, 30, 60, 120, 120, 120, 120]);
    expect(screen.byId('fresh').textContent).toBe('Ingen kontakt sedan 11:00');

    // Back: the stream is tried again (within 60 s × 1.25, before the next read is due at 695 s),
    // opens, and the rooms are read at once, then every 15 s.
    screen.state.online = true;
    await vi.advanceTimersByTimeAsync(80_000);
    expect(FakeSource.latest().closed).toBe(false);
    const before = screen.state.reads.length;
    FakeSource.latest().emit('open');
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.state.reads.length).toBe(before + 1);
    expect(screen.byId('fresh').textContent).toMatch(/^Uppdaterad för \d+ s sedan$/);
    const back = screen.state.reads.at(-1)!;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(screen.state.reads.slice(-2).map((at) => (at - back) / 1000)).toEqual([15, 30]);

    // Offline again: the backoff starts from the beginning.
    screen.state.online = false;
    const from = screen.state.reads.length;
    await vi.advanceTimersByTimeAsync(200_000);
    const again = screen.state.reads.slice(from - 1);
    expect(again.slice(1).map((at, i) => (at - again[i]!) / 1000)).toEqual([15, 30, 60]);
  });

  it('"updated … ago" starts again from a live update: the rooms it read hold that change, though the service was read earlier', async () => {
    const screen = openScreen();
    screen.state.refreshedAt = START;
    FakeSource.latest().emit('open');
    await vi.advanceTimersByTimeAsync(40_000);
    expect(screen.byId('fresh').textContent).toBe('Uppdaterad för 40 s sedan');
    FakeSource.latest().emit('changed', { lastEventId: '8' });
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.byId('fresh').textContent).toBe('Uppdaterad för 0 s sedan');
    // The next timed read (the service still last read at START) does not turn it back.
    await vi.advanceTimersByTimeAsync(16_000);
    expect(screen.byId('fresh').textContent).toBe('Uppdaterad för 16 s sedan');
  });

  it('a broken stream asks for the rooms at once while the screen is online', async () => {
    const screen = openScreen();
    FakeSource.latest().emit('open');
    FakeSource.latest().emit('error');
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.state.reads).toEqual([START]);
  });

  it('over a day of changes and broken streams, across midnight and DST, keeps one stream with listeners and no more timers', async () => {
    const screen = openScreen();
    const dates = new Set<string>();
    for (let step = 0; step < 288; step++) {
      const source = FakeSource.latest();
      source.emit('open');
      source.emit('changed', { lastEventId: String(100 + step) });
      source.emit('error');
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      dates.add(screen.byId('date').textContent);
      // Only the newest stream holds listeners; every earlier one is closed and holds none.
      expect(FakeSource.all.slice(0, -1).every((s) => s.closed && s.listenerCount === 0)).toBe(true);
      expect(FakeSource.latest().listenerCount).toBe(4);
      // The clock's and the page turn's intervals and the next read; the reconnect fired already.
      expect(vi.getTimerCount()).toBeLessThanOrEqual(4);
    }
    expect([...dates]).toEqual(['lördag 28 mars', 'söndag 29 mars']);
    // Summer time: 10:00 UTC the next day is 12:00 in Stockholm.
    expect(screen.byId('clock').textContent).toBe('12:00');
    expect(FakeSource.all[0]!.url).toBe('/display/tok/events?v=abc&lastEventId=7');
    expect(FakeSource.latest().url).toBe(`/display/tok/events?v=abc&lastEventId=${100 + 287}`);
    expect(screen.documentListeners).toEqual(['visibilitychange']);
  });

  it('switched off by the stream, ends everything: no stream, no timer', () => {
    const screen = openScreen();
    FakeSource.latest().emit('end', { data: JSON.stringify({ reason: 'switched-off' }) });
    expect(screen.body.innerHTML).toContain('Avstängd');
    expect(FakeSource.latest().closed).toBe(true);
    expect(FakeSource.latest().listenerCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('renamed or given another language (the stream ends "reload"), loads its page again once the page answers', async () => {
    const screen = openScreen();
    screen.state.pageStatus = 503;
    FakeSource.latest().emit('end', { data: JSON.stringify({ reason: 'reload' }) });
    await vi.advanceTimersByTimeAsync(0);
    // The portal did not answer: no reload to a browser's error page; the stream is tried again.
    expect(screen.state.pageReads).toBe(1);
    expect(screen.location.reload).not.toHaveBeenCalled();
    const first = FakeSource.latest();
    expect(first.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(FakeSource.latest()).not.toBe(first);

    screen.state.pageStatus = 200;
    FakeSource.latest().emit('end', { data: JSON.stringify({ reason: 'reload' }) });
    await vi.advanceTimersByTimeAsync(0);
    expect(screen.location.reload).toHaveBeenCalledTimes(1);
  });
});

describe('a room card', () => {
  const t = (key: string) => key;
  const room = (now: DisplayRoom['now'], nextFree: DisplayRoom['nextFree']): DisplayScreen => ({
    name: 'Entré',
    timeZone: 'Europe/Stockholm',
    nowMs: START,
    refreshedAt: null,
    loading: false,
    rooms: [{ id: 'r1', name: 'Tvättstuga 1', now, nextFree, days: [] }],
  });

  it('says "free now" beside "no other free time" (the running slot is the free one), and "no slot now" when none runs', () => {
    expect(renderRooms(room({ kind: 'free', untilMs: null }, null), 'sv', t)).toContain('<p class="now n-free">freeNow</p><p class="next">noOtherFreeSlot</p>');
    expect(renderRooms(room({ kind: 'none', untilMs: null }, null), 'sv', t)).toContain('<p class="now n-none">noSlotNow</p><p class="next">noFreeSlot</p>');
  });
});
