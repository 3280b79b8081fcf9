import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '@/lib/client/query-keys';
import type { ResidentResult } from '@/lib/views/types';
import { ResidentPicker } from './resource-week/resident-picker';
import { ResidentSearch } from './resident-search';

const render = (node: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);

const anna: ResidentResult = {
  userId: '00000000-0000-4000-8000-000000000011',
  name: 'Anna Svensson',
  email: 'anna+laundry@example.com',
  deviceId: '00000000-0000-4000-8000-000000000001',
  systemName: 'Brf Eken',
  apartmentId: '1203',
  userGroupId: null,
  resources: [{ id: '00000000-0000-4000-8000-000000000002', name: 'Laundry room 1' }],
};

describe('the resident finder', () => {
  it('on the Residents page: a labelled search field, the hint, and the server-side results with booking links', () => {
    const html = render(<ResidentSearch initialQuery="1203" initialResult={{ residents: [anna] }} />);
    expect(html).toMatch(/<form role="search"[^>]*>/);
    expect(html).not.toMatch(/<form role="search" aria-label=/);
    const input = /<input([^>]*)>/.exec(html)?.[1] ?? '';
    expect(input).toContain('type="search"');
    expect(input).toContain('value="1203"');
    const id = /id="([^"]+)"/.exec(input)?.[1];
    expect(html).toContain(`<label for="${id}" class="text-sm font-medium">Find a resident</label>`);
    expect(html).toContain('Apartment number, e-mail address or reference id, in every system you manage.');
    expect(html).toMatch(/<button type="submit"[^>]*>Search<\/button>/);
    expect(html).toContain('1 resident found for “1203”');
    expect(html).toContain('<ul aria-label="Residents"');
    expect(html).toMatch(/<li [^>]*aria-label="Anna Svensson"/);
    expect(html).toContain('aria-label="Book Laundry room 1 for Anna Svensson"');
    expect(html).toContain(`href="/systems/${anna.deviceId}/resources/${anna.resources![0]!.id}?resident=${anna.userId}"`);
  });

  it('says so when the server-side search failed', () => {
    const html = render(<ResidentSearch initialQuery="x" initialResult={null} initialError="The reservation service is unreachable right now." />);
    expect(html).toContain('role="alert"');
    expect(html).toContain('The search failed');
    expect(html).toContain('The reservation service is unreachable right now.');
  });

  it('on the Residents page: says when the service did not list what a resident may book', () => {
    const html = render(<ResidentSearch initialQuery="1203" initialResult={{ residents: [{ ...anna, resources: null }] }} />);
    expect(html).toContain('The service did not say; it decides when a booking is sent.');
    expect(html).not.toContain('No resources.');
  });

  it('in the slot dialog: offers exactly the residents the booking handler would accept (lib/booking-rules)', () => {
    const client = new QueryClient();
    const listed = { ...anna, userId: '00000000-0000-4000-8000-000000000012', name: 'Listed' };
    const other = { ...anna, userId: '00000000-0000-4000-8000-000000000013', name: 'Elsewhere', resources: [{ id: '00000000-0000-4000-8000-000000000009', name: 'Drying room' }] };
    const unknown = { ...anna, userId: '00000000-0000-4000-8000-000000000014', name: 'Unsaid', resources: null };
    client.setQueryData(queryKeys.residents(''), { residents: [listed, other, unknown] });
    const html = renderToStaticMarkup(
      <QueryClientProvider client={client}>
        <ResidentPicker deviceId={anna.deviceId} resourceId={anna.resources![0]!.id} resourceName="Laundry room 1" onChoose={() => undefined} />
      </QueryClientProvider>,
    );
    const button = (name: string) => new RegExp(`<button[^>]*aria-label="Choose ${name}, apartment 1203"[^>]*>`).exec(html)?.[0] ?? '';
    expect(button('Listed')).not.toContain(' disabled=""');
    expect(button('Elsewhere')).toContain(' disabled=""');
    expect(html).toContain('Elsewhere, apartment 1203 — not allowed to book Laundry room 1');
    expect(button('Unsaid')).not.toContain(' disabled=""');
    expect(button('Unsaid')).toContain('aria-label');
  });

  it('in the slot dialog: a named search form with a text field and a small Search button', () => {
    const html = render(<ResidentPicker deviceId={anna.deviceId} resourceId={anna.resources![0]!.id} resourceName="Laundry room 1" onChoose={() => undefined} />);
    expect(html).toMatch(/<form role="search" aria-label="Find the resident"/);
    const input = /<input([^>]*)>/.exec(html)?.[1] ?? '';
    expect(input).toContain('type="text"');
    const id = /id="([^"]+)"/.exec(input)?.[1];
    expect(html).toContain(`<label for="${id}" class="text-sm font-medium">Resident (apartment, e-mail or reference id)</label>`);
    expect(html).toMatch(/<button type="submit"[^>]*>Search<\/button>/);
    expect(html).not.toContain('Residents found');
  });
});
