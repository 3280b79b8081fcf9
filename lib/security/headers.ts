// Security headers for every response; pure so proxy.ts and tests share it (no settings read here).

export interface HeaderContext {
  production: boolean;
  https: boolean;
  /** Per-request nonce for pages; undefined for API and other non-HTML responses. */
  nonce?: string;
}

export function contentSecurityPolicy({ production, https, nonce }: HeaderContext): string {
  if (nonce === undefined) {
    // JSON, event streams, redirects: nothing may run or frame them.
    return "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
  }
  const directives = [
    "default-src 'self'",
    // 'strict-dynamic' lets Next's nonce-bearing bootstrap load its chunks; dev needs eval for React's stacks.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${production ? '' : " 'unsafe-eval'"}`,
    // Inline style attributes cannot carry a nonce; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ];
  return directives.join('; ');
}

export function securityHeaders(context: HeaderContext): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(context),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(context.production ? { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' } : {}),
  };
}

export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64');
}
