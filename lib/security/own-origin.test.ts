import { describe, expect, it } from 'vitest';
import { PEER_HEADER, parseTrustedProxies, type TrustedProxies } from '@/lib/http/client-address';
import { isSameOriginRequest, ownOrigins, refusedOrigin } from './own-origin';

const trust = (text: string) => parseTrustedProxies(text) as TrustedProxies;
const none = trust('');
const request = (url: string, headers: Record<string, string>) => ({ url, headers: new Headers(headers) });
const portal = 'http://localhost:3000';

describe('ownOrigins', () => {
  it('is PORTAL_URL plus the address the browser used (Host with the request protocol)', () => {
    // next start builds request.url from its own hostname ("localhost"), whatever the browser typed.
    expect(ownOrigins(request('http://localhost:3700/api/reservations', { host: '127.0.0.1:3700' }), { portalUrl: portal, trustedProxies: none })).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:3700',
    ]);
    expect(ownOrigins(request('http://localhost:3700/', { host: '[::1]:3700' }), { portalUrl: portal, trustedProxies: none })).toContain('http://[::1]:3700');
    expect(ownOrigins(request('http://localhost:3700/', { host: '192.168.1.20:3700' }), { portalUrl: portal, trustedProxies: none })).toContain('http://192.168.1.20:3700');
    // Default ports and letter case as the browser writes its Origin.
    expect(ownOrigins(request('https://x/', { host: 'Portal.Example:443' }), { portalUrl: 'https://portal.example', trustedProxies: none })).toEqual(['https://portal.example']);
    // No Host (HTTP/1.0, a test's Request): PORTAL_URL only.
    expect(ownOrigins(request('http://localhost:3700/', {}), { portalUrl: portal, trustedProxies: none })).toEqual([portal]);
  });

  it('believes X-Forwarded-Host / -Proto only from a trusted proxy', () => {
    const forwarded = { host: '10.0.0.5:3000', 'x-forwarded-host': 'laundry.example', 'x-forwarded-proto': 'https', [PEER_HEADER]: '10.0.0.2' };
    const settings = (trustedProxies: TrustedProxies) => ({ portalUrl: portal, trustedProxies });
    expect(ownOrigins(request('http://localhost:3000/', forwarded), settings(none))).toEqual([portal, 'http://10.0.0.5:3000']);
    expect(ownOrigins(request('http://localhost:3000/', forwarded), settings(trust('10.0.0.0/24')))).toEqual([portal, 'https://laundry.example']);
    expect(ownOrigins(request('http://localhost:3000/', forwarded), settings(trust('1')))).toEqual([portal, 'https://laundry.example']);
    // A peer not on the list: its X-Forwarded-* are the client's own words.
    expect(ownOrigins(request('http://localhost:3000/', { ...forwarded, [PEER_HEADER]: '203.0.113.9' }), settings(trust('10.0.0.0/24')))).not.toContain('https://laundry.example');
    // Several proxies: the first entry is the browser's.
    expect(ownOrigins(request('http://localhost:3000/', { ...forwarded, 'x-forwarded-host': 'laundry.example, inner.lan' }), settings(trust('1')))).toContain('https://laundry.example');
  });
});

describe('isSameOriginRequest', () => {
  const allowed = ['http://localhost:3000', 'http://127.0.0.1:3700'];
  const h = (init: Record<string, string>) => new Headers(init);
  it('accepts the page’s own origin and the browser’s Sec-Fetch-Site: same-origin', () => {
    expect(isSameOriginRequest('POST', h({ origin: 'http://127.0.0.1:3700' }), allowed)).toBe(true);
    expect(isSameOriginRequest('POST', h({ origin: 'http://127.0.0.1:3700', 'sec-fetch-site': 'same-origin' }), allowed)).toBe(true);
    // The browser vouches for the page and the target sharing an origin, whatever the address.
    expect(isSameOriginRequest('POST', h({ origin: 'http://10.1.2.3:3700', 'sec-fetch-site': 'same-origin' }), allowed)).toBe(true);
    expect(isSameOriginRequest('POST', h({}), allowed)).toBe(true);
    expect(isSameOriginRequest('GET', h({ origin: 'https://evil.example' }), allowed)).toBe(true);
  });
  it('refuses a foreign Origin and cross-site or same-site fetches', () => {
    expect(isSameOriginRequest('POST', h({ origin: 'https://evil.example' }), allowed)).toBe(false);
    expect(isSameOriginRequest('POST', h({ origin: 'null' }), allowed)).toBe(false);
    expect(isSameOriginRequest('POST', h({ origin: 'http://127.0.0.1:3701' }), allowed)).toBe(false);
    expect(isSameOriginRequest('DELETE', h({ 'sec-fetch-site': 'cross-site' }), allowed)).toBe(false);
    expect(isSameOriginRequest('PATCH', h({ 'sec-fetch-site': 'same-site', origin: 'http://localhost:3000' }), allowed)).toBe(false);
    expect(isSameOriginRequest('POST', h({ 'sec-fetch-site': 'none', origin: 'https://evil.example' }), allowed)).toBe(false);
  });
});

describe('refusedOrigin', () => {
  it('names the origin refused, or none', () => {
    expect(refusedOrigin(new Headers({ origin: 'https://evil.example' }))).toBe('https://evil.example');
    expect(refusedOrigin(new Headers({ origin: 'null' }))).toBeNull();
    expect(refusedOrigin(new Headers({}))).toBeNull();
  });
});
