import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/config';
import { queryKeys } from '@/lib/client/query-keys';
import { withIntl } from '@/tests/intl';
import type { NextFreeView } from '@/lib/views/apartment-types';
import { NextFreeSlots } from './next-free-slots';

const DEVICE = '00000000-0000-4000-8000-000000000001';
const GROUP = '00000000-0000-4000-8000-000000000002';
const view: NextFreeView = {
  slots: [
    {
      resourceId: 'R1',
      resourceName: 'Tvättstuga 1',
      kind: 'laundry',
      startTime: '2026-11-30T06:00Z',
      endTime: '2026-11-30T09:00Z',
      startMs: Date.UTC(2026, 10, 30, 6),
      endMs: Date.UTC(2026, 10, 30, 9),
      date: '2026-11-30',
      startLabel: '07:00',
      endLabel: '10:00',
      endsNextDay: false,
      dayPart: 'morning',
    },
  ],
  kind: null,
  dayPart: null,
  count: 3,
  atQuota: ['Torkrum'],
  timeZone: 'Europe/Stockholm',
  generatedAt: 0,
};

function render(props: { initial?: NextFreeView }, locale: Locale = 'en') {
  const client = new QueryClient();
  client.setQueryData(queryKeys.apartmentNextFree(DEVICE, GROUP, 'count=3'), view);
  return renderToStaticMarkup(
    withIntl(
      <QueryClientProvider client={client}>
        <NextFreeSlots deviceId={DEVICE} groupId={GROUP} residentUserId="U1" count={3} timeZone="Europe/Stockholm" {...props} />
      </QueryClientProvider>,
      locale,
    ),
  );
}

describe('next free slots', () => {
  it('offers nothing from an earlier answer in a dialog until its own fresh read is in', () => {
    const html = render({});
    expect(html).toContain('Looking for free slots…');
    expect(html).not.toContain('Book Monday 30 November');
  });

  it('lists the slots with a Book each, and the rooms left out at the quota, from an answer it may trust', () => {
    const html = render({ initial: view });
    expect(html).toContain('aria-label="Book Monday 30 November 07:00–10:00 in Tvättstuga 1"');
    expect(html).toContain('Left out, at the quota: Torkrum.');
  });

  it('speaks Swedish to a Swedish reader, the day too', () => {
    const html = render({ initial: view }, 'sv');
    expect(html).toContain('aria-label="Boka måndag 30 november 07:00–10:00 i Tvättstuga 1"');
    expect(html).toContain('Utelämnade, kvoten är nådd: Torkrum.');
  });
});
