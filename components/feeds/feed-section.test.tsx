import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { FeedSummary } from '@/lib/feeds/feeds';
import { withIntl } from '@/tests/intl';
import { FeedSection } from './feed-section';
import { FeedUrl } from './feed-url';

const TZ = 'Europe/Stockholm';
const feed = (over: Partial<FeedSummary> = {}): FeedSummary => ({
  id: '6f1c1d58-6a52-4f3e-9d55-0c7b3a1d2e01',
  scope: 'room',
  deviceId: 'f3b0e0a2-2f7d-4b8e-9a43-5a9c2d1e0b11',
  resourceId: '0b9c2f0e-8d2a-4c56-a0d7-2f3b4c5d6e7f',
  groupId: null,
  createdAt: '2026-11-24T07:05:00.000Z',
  createdByName: 'Mona Manager',
  rotatedAt: null,
  ...over,
});

const render = (feeds: FeedSummary[], locale: 'en' | 'sv' = 'en', scope: 'room' | 'apartment' = 'room') =>
  renderToStaticMarkup(
    withIntl(
      <QueryClientProvider client={new QueryClient()}>
        <FeedSection
          deviceId={feed().deviceId}
          target={scope === 'room' ? { scope, resourceId: feed().resourceId! } : { scope, groupId: feed().resourceId! }}
          initialFeeds={feeds}
          timeZone={TZ}
        />
      </QueryClientProvider>,
      locale,
    ),
  );

describe('the calendar feed section', () => {
  it('lists active feeds with when (in the system zone) and by whom, each with Rotate and Revoke named for it', () => {
    const html = render([feed(), feed({ id: '2', createdByName: null, rotatedAt: '2026-11-24T09:30:00.000Z' })]);
    expect(html).toContain('Calendar feed');
    expect(html).toContain('Create calendar feed');
    expect(html).toContain('Created Tuesday 24 November at 08:05 by Mona Manager');
    expect(html).toContain('by a removed account · new address since Tuesday 24 November at 10:30');
    expect(html).toContain('aria-label="Rotate the feed created Tuesday 24 November at 08:05"');
    expect(html).toContain('aria-label="Revoke the feed created Tuesday 24 November at 08:05"');
    // No address anywhere: the list has none to show.
    expect(html).not.toContain('/feeds/');
  });

  it('speaks Swedish and says when there are none', () => {
    const html = render([], 'sv', 'apartment');
    expect(html).toContain('Kalenderflöde');
    expect(html).toContain('Skapa kalenderflöde');
    expect(html).toContain('Inga aktiva flöden.');
    expect(html).toContain('lägenhetens bokningar');
  });

  it('shows a new address read-only with Copy, a status line and the shown-once note tied to the field', () => {
    const url = 'https://portal.example/feeds/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics';
    const html = renderToStaticMarkup(withIntl(<FeedUrl url={url} />));
    expect(html).toMatch(/<input[^>]*readOnly=""[^>]*value="https:\/\/portal\.example\/feeds\/A{43}\.ics"/i);
    expect(html).toContain('>Copy</button>');
    expect(html).toContain('role="status"');
    const described = /aria-describedby="([^"]+)"/.exec(html)![1]!;
    expect(html).toContain(`id="${described}"`);
    expect(html).toContain('shown only now');
    expect(html).toMatch(/<label for="([^"]+)"[^>]*>Feed address<\/label>/);
  });
});
