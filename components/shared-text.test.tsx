import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { withIntl } from '@/tests/intl';
import { Breadcrumbs } from './breadcrumbs';
import { PageError } from './page-error';
import { QueryError } from './ui/query-error';
import { FallbackMessage } from './shell/fallback-page';
import { StatusBadge } from './shell/status-badge';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh: () => undefined }) }));

const system = { deviceId: 'd1', name: 'Ekhagen', timeZone: 'Europe/Stockholm', status: 'disconnected', bookingHorizonDays: 28, scheduleBasis: 'utc', bookingQuota: 2 , street: null, city: null, area: null } as const;

describe('shared texts in the reader’s language', () => {
  it('QueryError offers Retry, in Swedish "Försök igen"', () => {
    const onRetry = () => undefined;
    expect(renderToStaticMarkup(withIntl(<QueryError title="T" message="M" onRetry={onRetry} />))).toContain('>Retry</button>');
    expect(renderToStaticMarkup(withIntl(<QueryError title="T" message="M" onRetry={onRetry} retrying />, 'sv'))).toContain('>Försöker igen…</button>');
    expect(renderToStaticMarkup(withIntl(<QueryError title="T" message="M" onRetry={onRetry} />, 'sv'))).toContain('>Försök igen</button>');
  });

  it('PageError says the page could not be loaded', () => {
    const reset = () => undefined;
    expect(renderToStaticMarkup(withIntl(<PageError title="Ekhagen" reset={reset} />))).toContain('This page could not be loaded');
    expect(renderToStaticMarkup(withIntl(<PageError title="Ekhagen" reset={reset} />, 'sv'))).toContain('Sidan kunde inte läsas in');
  });

  it('Breadcrumbs are a named navigation', () => {
    const crumbs = <Breadcrumbs parents={[{ label: 'System', href: '/systems' }]} current="Ekhagen" />;
    expect(renderToStaticMarkup(withIntl(crumbs))).toContain('aria-label="Breadcrumb"');
    expect(renderToStaticMarkup(withIntl(crumbs, 'sv'))).toContain('aria-label="Sökväg"');
  });

  it('FallbackMessage says not found or no access, with the way back', () => {
    const notFound = renderToStaticMarkup(withIntl(<FallbackMessage kind="not-found" signedIn />));
    expect(notFound).toContain('Page not found');
    expect(notFound).toContain('Back to your systems');
    const forbidden = renderToStaticMarkup(withIntl(<FallbackMessage kind="forbidden" signedIn={false} />, 'sv'));
    expect(forbidden).toContain('Fel 403');
    expect(forbidden).toContain('Du har inte åtkomst till det här systemet');
    expect(forbidden).toContain('Gå till startsidan');
  });

  it('FallbackMessage tells a manager in the admin area that it is for admins (issue 48), in both languages', () => {
    const en = renderToStaticMarkup(withIntl(<FallbackMessage kind="admin-only" signedIn />));
    expect(en).toContain('Error 403');
    expect(en).toContain('This area is for admins');
    expect(en).not.toContain('Page not found');
    const sv = renderToStaticMarkup(withIntl(<FallbackMessage kind="admin-only" signedIn />, 'sv'));
    expect(sv).toContain('Den här delen är för administratörer');
    expect(sv).toContain('Tillbaka till dina system');
  });

  it('a system’s status', () => {
    expect(renderToStaticMarkup(withIntl(<StatusBadge status="active" />))).toContain('>Active</span>');
    expect(renderToStaticMarkup(withIntl(<StatusBadge status="error" />, 'sv'))).toContain('>Fel</span>');
    expect(renderToStaticMarkup(withIntl(<StatusBadge status={system.status} />, 'sv'))).toContain('>Bortkopplat</span>');
  });
});
