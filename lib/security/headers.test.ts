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

describe("next.config.mjs's CSP for automatic answers", () => {
  it('is the API CSP: 405s that no handler of ours writes carry the same policy', async () => {
    const { readFile } = await import('node:fs/promises');
    const config = await readFile(new URL('../../next.config.mjs', import.meta.url), 'utf8');
    const value = /export const API_CSP = "([^"]+)"/.exec(config)?.[1];
    expect(value).toBe(contentSecurityPolicy({ production: true, https: false }));
  });
});
