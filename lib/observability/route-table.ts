/**
 * The app's route table: every route handler and page under app/ as its template, the way Next
 * matches it. Metrics label a request with the template it matched, never with text of its path,
 * so that no client can add a series by inventing paths (issue 33, item 1); anything that matches
 * no route is one label, `unmatched`. route-table.test.ts fails when a route file under app/ is
 * missing here.
 */
export const ROUTE_TEMPLATES = [
  // Route handlers (app/**/route.ts); route groups such as (portal) are not part of the path.
  '/api/admin/personal-data/extract/[file]',
  '/api/admin/personal-data/residents',
  '/api/admin/managers/[userId]/systems',
  '/api/admin/systems',
  '/api/admin/systems/export',
  '/api/admin/systems/import',
  '/api/auth/[...nextauth]',
  '/api/displays',
  '/api/displays/[displayId]',
  '/api/displays/[displayId]/rotate',
  '/api/emails/[mailId]',
  '/api/events',
  '/api/feeds',
  '/api/feeds/[feedId]',
  '/api/feeds/[feedId]/rotate',
  '/api/health',
  '/api/health/ready',
  '/api/me/locale',
  '/api/metrics',
  '/api/reports',
  '/api/reports/portfolio',
  '/api/requests',
  '/api/reservations',
  '/api/reservations/[reservationId]',
  '/api/residents',
  '/api/systems',
  '/api/systems/[deviceId]',
  '/api/systems/[deviceId]/apartments/[groupId]',
  '/api/systems/[deviceId]/apartments/[groupId]/next-free',
  '/api/systems/[deviceId]/closures',
  '/api/systems/[deviceId]/closures/[closureId]',
  '/api/systems/[deviceId]/closures/preview',
  '/api/systems/[deviceId]/exports/[file]',
  '/api/systems/[deviceId]/overview',
  '/api/systems/[deviceId]/reports',
  '/api/systems/[deviceId]/resources/[resourceId]/week',
  '/api/webhooks',
  '/display/[token]',
  '/display/[token]/events',
  '/display/[token]/screen',
  '/feeds/[file]',
  '/sandbox/[...path]',
  // Pages (app/**/page.tsx).
  '/',
  '/sign-in',
  '/admin',
  '/admin/audit',
  '/admin/managers',
  '/admin/managers/[userId]',
  '/admin/retention',
  '/admin/personal-data',
  '/admin/systems',
  '/admin/systems/[deviceId]',
  '/emails',
  '/emails/[mailId]',
  '/portfolio',
  '/reports',
  '/requests',
  '/residents',
  '/systems',
  '/systems/[deviceId]',
  '/systems/[deviceId]/apartments/[groupId]',
  '/systems/[deviceId]/building',
  '/systems/[deviceId]/closures',
  '/systems/[deviceId]/displays',
  '/systems/[deviceId]/reports',
  '/systems/[deviceId]/resources/[resourceId]',
  '/systems/[deviceId]/resources/[resourceId]/sheet',
] as const;

/** The label of a path no route matches (the catch-all 404 of /api/[...path] included). */
export const UNMATCHED_ROUTE = 'unmatched';

type Segment = { kind: 'static'; text: string } | { kind: 'dynamic' } | { kind: 'catchAll' };
interface Compiled {
  template: string;
  segments: Segment[];
}

function compile(template: string): Compiled {
  const segments = template
    .split('/')
    .filter(Boolean)
    .map((text): Segment => (text.startsWith('[...') ? { kind: 'catchAll' } : text.startsWith('[') ? { kind: 'dynamic' } : { kind: 'static', text }));
  return { template, segments };
}

// Next prefers a static segment to a dynamic one, and a dynamic one to a catch-all, position by
// position; sorting by that rank lets the first match win.
const rank = (segment: Segment) => (segment.kind === 'static' ? 0 : segment.kind === 'dynamic' ? 1 : 2);
function compare(a: Compiled, b: Compiled): number {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const x = a.segments[i];
    const y = b.segments[i];
    if (!x || !y) return x ? 1 : -1;
    if (rank(x) !== rank(y)) return rank(x) - rank(y);
  }
  return 0;
}

const COMPILED = ROUTE_TEMPLATES.map(compile).sort(compare);

function matches(route: Compiled, parts: string[]): boolean {
  for (let i = 0; i < route.segments.length; i++) {
    const segment = route.segments[i]!;
    if (segment.kind === 'catchAll') return parts.length > i;
    const part = parts[i];
    if (part === undefined) return false;
    if (segment.kind === 'static' && segment.text !== part) return false;
  }
  return parts.length === route.segments.length;
}

/** The template of the route a path reaches, or `unmatched`: a label with a fixed set of values. */
export function routeOfPath(pathname: string): string {
  // Only the first few segments matter: no route is deeper than eight.
  const parts = pathname.split('/').filter(Boolean).slice(0, 12);
  for (const route of COMPILED) if (matches(route, parts)) return route.template;
  return UNMATCHED_ROUTE;
}
