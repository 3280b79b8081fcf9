import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, securityHeaders } from './headers';

describe('security headers', () => {
  it('puts the nonce in the page CSP and forbids framing; HSTS only in production', () => {
    const csp = contentSecurityPolicy({ production: true, https: true, nonce: 'abc' });
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(securityHeaders({ production: true, https: true })['Strict-Transport-Security']).toMatch(/max-age=\d+/);
    expect(securityHeaders({ production: false, https: false })['Strict-Transport-Security']).toBeUndefined();
    expect(securityHeaders({ production: false, https: false, nonce: 'n' })['X-Content-Type-Options']).toBe('nosniff');
    expect(contentSecurityPolicy({ production: true, https: false })).toContain("default-src 'none'");
  });
});
