import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { withIntl } from '@/tests/intl';
import { budgetDeferredUntil, FreshnessNote, outsideMinutes, STALE_AFTER_MS, SkippedItemsNote, showRefreshing } from './freshness-note';

const TZ = 'Europe/Stockholm';

describe('FreshnessNote', () => {
  it('says "Service unreachable" only when the service did not answer', () => {
    const base = { status: 'ready', refreshedAt: '2026-11-24T07:00:00.000Z', refreshing: false, lastErrorAt: null, retryAt: '2026-11-24T08:05:00.000Z', nextRefreshAt: null, deferredBy: null } as const;
    const unreachable = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...base, lastError: 'The reservation service could not be reached.', lastErrorKind: 'unreachable' }} timeZone={TZ} />));
    expect(unreachable).toContain('Service unreachable.');
    expect(unreachable).toContain('tries again at 09:05');
    const unreadable = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...base, lastError: 'The reservation service answered something the portal cannot read.', lastErrorKind: 'unreadable' }} timeZone={TZ} />));
    expect(unreadable).not.toContain('unreachable');
    expect(unreadable).toContain('answered something the portal cannot read');
  });

  it('shows a failed first load as a failure with its retry time, not as loading forever', () => {
    const html = renderToStaticMarkup(withIntl(<FreshnessNote
        freshness={{ status: 'loading', pagesFetched: 0, refreshing: false, partial: null, lastError: 'The reservation service refused the portal\u2019s request.', lastErrorKind: 'refused', retryAt: '2026-11-24T08:05:00.000Z', nextRefreshAt: null, deferredBy: null }}
        timeZone={TZ}
      />));
    expect(html).not.toContain('Loading reservations');
    expect(html).toContain('Request refused by the service.');
    expect(html).toContain('09:05');
  });

  it('speaks Swedish: how long ago, the failure and the retry', () => {
    const refreshedAt = new Date(Date.now() - 120_000).toISOString();
    const html = renderToStaticMarkup(
      withIntl(
        <FreshnessNote
          freshness={{ status: 'ready', refreshedAt, refreshing: false, lastErrorAt: null, lastError: 'x', lastErrorKind: 'unreachable', retryAt: '2026-11-24T08:05:00.000Z', nextRefreshAt: null, deferredBy: null }}
          timeZone={TZ}
        />,
        'sv',
      ),
    );
    expect(html).toMatch(/Uppdaterad för [23] minuter sedan/);
    expect(html).toContain('Tjänsten går inte att nå.');
    expect(html).toContain('Bokningstjänsten gick inte att nå.');
    expect(html).toContain('Portalen försöker igen kl. 09:05.');
  });
});

describe('a refresh waiting to read a failed page again, in words', () => {
  const waiting = { kind: 'busy', retryAt: '2026-11-24T08:05:00.000Z' } as const;
  it('says so during a first load, beside its progress, in English and Swedish', () => {
    const freshness = { status: 'loading', pagesFetched: 3, refreshing: true, partial: { reservationsRead: 300, reservationsExpected: null }, lastError: null, lastErrorKind: null, retryAt: null, nextRefreshAt: null, deferredBy: null, waiting } as const;
    const en = renderToStaticMarkup(withIntl(<FreshnessNote freshness={freshness} timeZone={TZ} />));
    expect(en).toContain('Reservations: 300 read');
    expect(en).toContain('Service busy.');
    expect(en).toContain('The reservation service is busy and asked the portal to slow down.');
    expect(en).toContain('The portal is waiting for it: it asks for the page of the list it could not read again at 09:05 and goes on from there; nothing read so far is lost.');
    const sv = renderToStaticMarkup(withIntl(<FreshnessNote freshness={freshness} timeZone={TZ} />, 'sv'));
    expect(sv).toContain('Portalen väntar på den: den frågar efter sidan i listan som inte gick att läsa igen kl. 09:05');
  });

  it('says so over a copy held, and says nothing of it when not waiting', () => {
    const base = { status: 'ready', refreshedAt: '2026-11-24T07:00:00.000Z', refreshing: true, lastErrorAt: null, lastError: null, lastErrorKind: null, retryAt: null, nextRefreshAt: null, deferredBy: null } as const;
    const html = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...base, waiting: { kind: 'unreachable', retryAt: '2026-11-24T08:05:30.000Z' } }} timeZone={TZ} />));
    expect(html).toContain('Service unreachable.');
    expect(html).toContain('The portal is waiting for it');
    expect(renderToStaticMarkup(withIntl(<FreshnessNote freshness={base} timeZone={TZ} />))).not.toContain('The portal is waiting for it');
  });
});

describe('a list that did not end, in words', () => {
  const incomplete = {
    status: 'ready',
    refreshedAt: '2026-11-24T07:00:00.000Z',
    refreshing: false,
    lastErrorAt: null,
    lastError: null,
    lastErrorKind: null,
    retryAt: null,
    nextRefreshAt: '2026-11-24T08:05:00.000Z',
    deferredBy: 'backoff',
    incomplete: ['reservations'],
  } as const;

  it('says the copy is incomplete because the service\'s list did not end, which list, and when it is tried again', () => {
    const html = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...incomplete, incomplete: [...incomplete.incomplete] }} timeZone={TZ} />));
    // renderToStaticMarkup escapes the apostrophe.
    expect(html).toContain('Incomplete — the service&#x27;s list did not end.');
    expect(html).toContain('of the reservations');
    expect(html).toContain('tries again at 09:05');
    const sv = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...incomplete, incomplete: [...incomplete.incomplete] }} timeZone={TZ} />, 'sv'));
    expect(sv).toContain('Ofullständig – tjänstens lista tog aldrig slut.');
    expect(sv).toContain('bokningar');
  });

  it('says nothing of it when every list ended', () => {
    const html = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...incomplete, incomplete: undefined, deferredBy: null, nextRefreshAt: null }} timeZone={TZ} />));
    expect(html).not.toContain('Incomplete');
  });
});

describe('the request budget in words', () => {
  const deferred = {
    status: 'ready',
    refreshedAt: '2026-11-24T13:02:00.000Z',
    refreshing: false,
    lastErrorAt: null,
    lastError: null,
    lastErrorKind: null,
    retryAt: null,
    nextRefreshAt: '2026-11-24T13:12:30.000Z',
    deferredBy: 'budget',
  } as const;

  it('says as of when bookings made outside the portal are shown, and about when the next update comes', () => {
    const en = renderToStaticMarkup(withIntl(<FreshnessNote freshness={deferred} timeZone={TZ} />));
    expect(en).toContain('Bookings made outside the portal are shown as of 14:02; next update about 14:12.');
    expect(en).toMatch(/Updated .+ ago/);
    const sv = renderToStaticMarkup(withIntl(<FreshnessNote freshness={deferred} timeZone={TZ} />, 'sv'));
    expect(sv).toContain('Bokningar som gjorts utanför portalen visas som de var kl. 14:02; nästa uppdatering omkring kl. 14:12.');
  });

  it('says nothing of it when only the freshness window or a failure holds the next refresh', () => {
    expect(budgetDeferredUntil({ ...deferred, deferredBy: null })).toBeNull();
    expect(budgetDeferredUntil({ ...deferred, deferredBy: 'backoff' })).toBeNull();
    const fresh = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...deferred, deferredBy: null }} timeZone={TZ} />));
    expect(fresh).not.toContain('outside the portal');
    // A failure speaks for itself (and its retry time): "Service busy." stays the headline.
    const busy = renderToStaticMarkup(
      withIntl(<FreshnessNote freshness={{ ...deferred, lastError: 'x', lastErrorKind: 'busy', retryAt: '2026-11-24T13:20:00.000Z' }} timeZone={TZ} />),
    );
    expect(busy).toContain('Service busy.');
    expect(busy).not.toContain('outside the portal');
  });
});

describe('showRefreshing', () => {
  const refreshedAt = '2026-11-24T07:00:00.000Z';
  const at = (ms: number) => Date.parse(refreshedAt) + ms;
  const ready = (refreshing: boolean) => ({ status: 'ready', refreshedAt, refreshing, lastErrorAt: null, lastError: null, lastErrorKind: null, retryAt: null, nextRefreshAt: null, deferredBy: null }) as const;

  it('stays quiet during the routine background refresh of fresh data', () => {
    expect(showRefreshing(ready(true), at(31_000))).toBe(false);
    expect(showRefreshing(ready(true), at(STALE_AFTER_MS - 1))).toBe(false);
  });

  it('says "refreshing…" only when a refresh runs while the data is stale', () => {
    expect(showRefreshing(ready(true), at(STALE_AFTER_MS))).toBe(true);
    expect(showRefreshing(ready(false), at(10 * STALE_AFTER_MS))).toBe(false);
  });
});

describe('SkippedItemsNote', () => {
  it('counts what could not be read and lists the reasons', () => {
    const html = renderToStaticMarkup(withIntl(<SkippedItemsNote
        skipped={{ total: 3, counts: { reservations: 2, timeSchedules: 1 }, samples: [{ collection: 'reservations', id: 'r-1', reason: 'startTime: is not an ISO 8601 date-time' }] }}
      />));
    expect(html).toContain('3 items from the service could not be read');
    expect(html).toContain('2 reservations, 1 time schedules');
    expect(html).toContain('<details');
    expect(html).toContain('r-1');
    const sv = renderToStaticMarkup(withIntl(<SkippedItemsNote skipped={{ total: 1, counts: { userGroups: 1 }, samples: [] }} />, 'sv'));
    expect(sv).toContain('1 post från tjänsten kunde inte läsas');
    expect(sv).toContain('(1 användargrupper)');
  });
});

describe('the promise about changes made outside the portal', () => {
  const ready = { status: 'ready', refreshedAt: '2026-11-24T07:00:00.000Z', refreshing: false, lastErrorAt: null, lastError: null, lastErrorKind: null, retryAt: null } as const;

  it('says within how many minutes, in English and Swedish, rounded up', () => {
    const en = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...ready, nextRefreshAt: null, deferredBy: null, outsideWithinS: 31 }} timeZone={TZ} />));
    expect(en).toContain('Changes made outside the portal show within about 1 minute.');
    const sv = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...ready, nextRefreshAt: null, deferredBy: null, outsideWithinS: 780 }} timeZone={TZ} />, 'sv'));
    expect(sv).toContain('Ändringar som görs utanför portalen syns inom ungefär 13 minuter.');
  });

  it('follows the next update when the budget holds the copy back', () => {
    const html = renderToStaticMarkup(
      withIntl(<FreshnessNote freshness={{ ...ready, nextRefreshAt: '2026-11-24T07:15:00.000Z', deferredBy: 'budget', outsideWithinS: 780 }} timeZone={TZ} />),
    );
    expect(html).toContain('next update about 08:15. Changes made outside the portal show within about 13 minutes.');
  });

  it('says nothing when the bound is unknown', () => {
    const html = renderToStaticMarkup(withIntl(<FreshnessNote freshness={{ ...ready, nextRefreshAt: null, deferredBy: null }} timeZone={TZ} />));
    expect(html).not.toContain('outside the portal');
    expect(outsideMinutes(0)).toBe(1);
    expect(outsideMinutes(61)).toBe(2);
  });
});
