import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApartmentHit } from '@/lib/residents/search';
import { withIntl } from '@/tests/intl';
import { ResidentCombobox } from './resident-combobox';
import { ResidentResults } from './resident-results';
import { ResidentPicker } from './resource-week/resident-picker';

const render = (node: ReactNode, locale: 'en' | 'sv' = 'en') => renderToStaticMarkup(withIntl(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>, locale));

const deviceId = '00000000-0000-4000-8000-000000000001';
const persson: ApartmentHit = {
  deviceId,
  systemName: 'Brf Linnégatan 12',
  groupId: '00000000-0000-4000-8000-000000000021',
  apartmentId: 'LGH 1001',
  groupName: 'Lägenhet LGH 1001',
  referenceId: 'REF-01-233093',
  residents: [
    { userId: '00000000-0000-4000-8000-000000000011', name: 'Anna Persson', email: 'anna@example.com' },
    { userId: '00000000-0000-4000-8000-000000000012', name: '', email: '' },
  ],
};
const caretaker: ApartmentHit = { ...persson, groupId: null, apartmentId: '', groupName: '', referenceId: '', residents: [{ userId: '00000000-0000-4000-8000-000000000013', name: 'Fastighetsskötare', email: '' }] };

describe('the resident combobox', () => {
  it('is an ARIA 1.2 combobox: labelled, collapsed, controlling a listbox, with a polite status', () => {
    const html = render(<ResidentCombobox label="Find a resident" hint="Name, apartment, e-mail or reference id." name="q" defaultValue="lgh 1001" onPick={() => undefined} />);
    const input = /<input([^>]*)>/.exec(html)?.[1] ?? '';
    expect(input).toContain('role="combobox"');
    expect(input).toContain('aria-expanded="false"');
    expect(input).toContain('aria-autocomplete="list"');
    expect(input).toContain('name="q"');
    expect(input).toContain('value="lgh 1001"');
    expect(input).not.toContain('aria-activedescendant');
    const id = /\bid="([^"]+)"/.exec(input)?.[1];
    const list = /aria-controls="([^"]+)"/.exec(input)?.[1];
    expect(html).toContain(`<label for="${id}"`);
    expect(html).toMatch(new RegExp(`id="${list}" role="listbox"[^>]*hidden`));
    expect(html).toMatch(/role="status" aria-live="polite"/);
    expect(html).toContain('Name, apartment, e-mail or reference id.');
  });

  it('in the slot dialog: a "Resident" combobox', () => {
    const html = render(withIntl(<ResidentPicker deviceId={deviceId} onChoose={() => undefined} />));
    expect(html).toMatch(/<label [^>]*>Resident<\/label>/);
    expect(html).toContain('role="combobox"');
  });
});

describe('the server-rendered results', () => {
  it('lists one card per apartment linking to its page, with words for empty labels', () => {
    const html = render(<ResidentResults q="1001" result={{ apartments: [persson, caretaker], truncated: true }} />);
    expect(html).toContain('2+ apartments found for “1001”');
    expect(html).toContain('Only the best matches are listed');
    expect(html).toContain('aria-label="Apartment 1001, Brf Linnégatan 12"');
    expect(html).toContain(`href="/systems/${deviceId}/apartments/${persson.groupId}"`);
    expect(html).toContain(`href="/systems/${deviceId}"`);
    expect(html).toContain('No apartment');
    expect(html).toContain('Unnamed resident');
    expect(html).toContain('No e-mail address');
  });

  it('offers the next free slot with a Book on an apartment\'s card, none on a user in no apartment', () => {
    const html = render(<ResidentResults q="1001" result={{ apartments: [persson, caretaker], truncated: false }} />);
    expect(html.match(/role="group" aria-label="Next free slot for /g)).toHaveLength(1);
    expect(html).toContain('aria-label="Next free slot for Apartment 1001"');
    // Read afresh when the page opens (a slot booked moments ago must not be offered).
    expect(html).toContain('Looking for free slots…');
  });

  it('says how many systems are not loaded yet, and what finds residents there (issue 49)', () => {
    const html = render(<ResidentResults q="anna" result={{ apartments: [persson], truncated: false, notLoaded: 388 }} />);
    expect(html).toContain('388 systems are not loaded into the portal yet: there, only an exact apartment number, e-mail address or reference id finds residents.');
    expect(render(<ResidentResults q="anna" result={{ apartments: [], truncated: false, notLoaded: 1 }} />, 'sv')).toContain('1 system är inte inläst i portalen än');
    expect(render(<ResidentResults q="anna" result={{ apartments: [persson], truncated: false }} />)).not.toContain('not loaded');
  });

  it('says when nothing was found', () => {
    const html = render(<ResidentResults q="zz" result={{ apartments: [], truncated: false }} />);
    expect(html).toContain('No residents found for “zz”');
  });

  it('speaks Swedish to a Swedish reader', () => {
    const html = render(<ResidentResults q="1001" result={{ apartments: [persson, caretaker], truncated: true }} />, 'sv');
    expect(html).toContain('2+ lägenheter hittades för ”1001”');
    expect(html).toContain('aria-label="Lägenhet 1001, Brf Linnégatan 12"');
    expect(html).toContain('Ingen lägenhet');
    expect(html).toContain('Namnlös boende');
    expect(html).toContain('aria-label="Nästa lediga pass för Lägenhet 1001"');
  });
});
