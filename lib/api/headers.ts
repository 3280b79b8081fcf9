import 'server-only';
import { env } from '@/lib/env';
import { securityHeaders } from '@/lib/security/headers';

// API routes are outside proxy.ts's matcher (it cost about 3.5 ms a request, measured), so the
// headers it used to add to them are added here, for every answer, errors included.
const apiHeaders = Object.entries(securityHeaders({ production: env.NODE_ENV === 'production', https: false }));

/** The security headers of a non-HTML response, and `no-store` unless the handler chose a policy. */
export function withApiHeaders(response: Response): Response {
  let out = response;
  try {
    applyApiHeaders(out.headers);
  } catch {
    // Headers of a fetched response are immutable: answer with a copy.
    out = new Response(response.body, response);
    applyApiHeaders(out.headers);
  }
  return out;
}

function applyApiHeaders(headers: Headers): void {
  for (const [name, value] of apiHeaders) if (!headers.has(name)) headers.set(name, value);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
}
