import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestView } from '@/lib/events/types';
import { MIN_PENDING_MS, PendingHold } from './pending-hold';

const request = (status: RequestView['status'], id = 'r1'): RequestView => ({ id, status }) as RequestView;

describe('the pending hold', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps a pending state on screen for 1.5 s however fast the outcome comes, then shows the outcome', () => {
    const shown: string[] = [];
    const hold = new PendingHold((r) => shown.push(`${r.id} ${r.status}`));
    hold.push(request('pending'));
    vi.advanceTimersByTime(20);
    hold.push(request('succeeded'));
    expect(shown).toEqual(['r1 pending']);
    vi.advanceTimersByTime(MIN_PENDING_MS - 21);
    expect(shown).toEqual(['r1 pending']);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual(['r1 pending', 'r1 succeeded']);
    expect(MIN_PENDING_MS).toBeGreaterThanOrEqual(1_500);
  });

  it('lets an outcome pass at once when its pending state has been shown long enough, or was never shown here', () => {
    const shown: string[] = [];
    const hold = new PendingHold((r) => shown.push(`${r.id} ${r.status}`));
    hold.push(request('sending'));
    vi.advanceTimersByTime(2_000);
    hold.push(request('failed'));
    hold.push(request('succeeded', 'other-tab'));
    expect(shown).toEqual(['r1 sending', 'r1 failed', 'other-tab succeeded']);
  });

  it('does not let a late open state overtake a held outcome, and keeps the newest word on it', () => {
    const shown: string[] = [];
    const hold = new PendingHold((r) => shown.push(`${r.id} ${r.status}`));
    hold.push(request('sending'));
    hold.push(request('succeeded'));
    hold.push(request('pending'));
    hold.push({ ...request('succeeded'), outcomeUnknown: false });
    vi.advanceTimersByTime(MIN_PENDING_MS);
    expect(shown).toEqual(['r1 sending', 'r1 succeeded']);
  });

  it('when the outcome overtakes the tab\'s own 202, shows the pending state and tells the outcome again 1.5 s later', () => {
    const shown: string[] = [];
    const hold = new PendingHold((r) => shown.push(`${r.id} ${r.status}`));
    hold.push(request('succeeded'));
    hold.push(request('pending'));
    expect(shown).toEqual(['r1 succeeded', 'r1 pending']);
    vi.advanceTimersByTime(MIN_PENDING_MS);
    expect(shown).toEqual(['r1 succeeded', 'r1 pending', 'r1 succeeded']);
  });

  it('shows the tab\'s own request pending for 1.5 s even when its 202 already carries the outcome', () => {
    const shown: string[] = [];
    const hold = new PendingHold((r) => shown.push(`${r.id} ${r.status}`));
    hold.pushOwn(request('succeeded'));
    // The live event of the same outcome, moments later, waits too.
    vi.advanceTimersByTime(30);
    hold.push(request('succeeded'));
    expect(shown).toEqual(['r1 pending']);
    vi.advanceTimersByTime(MIN_PENDING_MS - 30);
    expect(shown).toEqual(['r1 pending', 'r1 succeeded']);
    // A 202 that is still pending is shown as it is.
    hold.pushOwn(request('pending', 'r2'));
    expect(shown.at(-1)).toBe('r2 pending');
  });

  it('counts the minimum from the tab\'s own 202 when the live events of the request came first', () => {
    const shown: string[] = [];
    const hold = new PendingHold((r) => shown.push(`${r.id} ${r.status}`));
    hold.push(request('pending'));
    vi.advanceTimersByTime(200);
    hold.push(request('succeeded'));
    vi.advanceTimersByTime(100);
    hold.pushOwn(request('succeeded'));
    expect(shown).toEqual(['r1 pending', 'r1 pending']);
    vi.advanceTimersByTime(MIN_PENDING_MS - 1);
    expect(shown).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual(['r1 pending', 'r1 pending', 'r1 succeeded']);
  });

  it('drops its timers when the page goes', () => {
    const shown: string[] = [];
    const hold = new PendingHold((r) => shown.push(r.status));
    hold.push(request('pending'));
    hold.push(request('succeeded'));
    hold.dispose();
    vi.advanceTimersByTime(MIN_PENDING_MS * 2);
    expect(shown).toEqual(['pending']);
  });
});
