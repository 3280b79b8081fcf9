import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_TEMPLATES, UNMATCHED_ROUTE, routeOfPath } from './route-table';

const APP = path.join(__dirname, '..', '..', 'app');

/** Every route.ts and page.tsx under app/ as Next's path template (route groups left out). */
function appRoutes(): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(APP, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !['route.ts', 'page.tsx'].includes(entry.name)) continue;
    const dir = path.relative(APP, entry.parentPath);
    const segments = dir.split(path.sep).filter((s) => s && !/^\(.*\)$/.test(s));
    found.push('/' + segments.join('/'));
  }
  return found;
}

describe('route table', () => {
  it('holds every route handler and page under app/ (the catch-all 404 of /api aside)', () => {
    const routes = appRoutes().filter((r) => r !== '/api/[...path]');
    expect(routes.length).toBeGreaterThan(40);
    expect([...ROUTE_TEMPLATES].sort()).toEqual([...new Set(routes)].sort());
  });

  it('labels a path with the template it matches, static segments before dynamic ones', () => {
    expect(routeOfPath('/api/systems/r8f3k2/reports')).toBe('/api/systems/[deviceId]/reports');
    expect(routeOfPath('/api/systems/abc/closures/preview')).toBe('/api/systems/[deviceId]/closures/preview');
    expect(routeOfPath('/api/systems/abc/closures/xyz')).toBe('/api/systems/[deviceId]/closures/[closureId]');
    expect(routeOfPath('/api/health/ready')).toBe('/api/health/ready');
    expect(routeOfPath('/api/admin/personal-data/extract/extract.json')).toBe('/api/admin/personal-data/extract/[file]');
    expect(routeOfPath('/api/admin/personal-data/residents')).toBe('/api/admin/personal-data/residents');
    expect(routeOfPath('/admin/personal-data')).toBe('/admin/personal-data');
    expect(routeOfPath('/api/auth/callback/credentials')).toBe('/api/auth/[...nextauth]');
    expect(routeOfPath('/feeds/secret-token.ics')).toBe('/feeds/[file]');
    expect(routeOfPath('/sandbox/_sandbox/faults')).toBe('/sandbox/[...path]');
    expect(routeOfPath('/')).toBe('/');
  });

  it('gives any path no route matches one label', () => {
    for (const p of ['/api/nothing', '/api/systems/a/b/c/d/e', '/wp-admin/x.php', '/api/auth', '/feeds', '/sandbox', '/api/%2e%2e/x']) {
      expect(routeOfPath(p)).toBe(UNMATCHED_ROUTE);
    }
  });
});
