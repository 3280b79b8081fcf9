import { ApiError } from '@/lib/errors/api-error';
import { withErrors } from '@/lib/api/route';
import { msg } from '@/lib/i18n/message';

export const dynamic = 'force-dynamic';

// ALL /api/* not matched by another route — a JSON 404 with the security headers, not Next's HTML page
const notFound = withErrors((request: Request): Response => {
  const path = new URL(request.url).pathname;
  throw new ApiError('not_found', msg('errors.noSuchApi', { path: path.length > 120 ? `${path.slice(0, 119)}…` : path }));
});

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
