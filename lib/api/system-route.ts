import 'server-only';
import { requireSystemAccess } from '@/lib/auth/access';
import type { SessionUser } from '@/lib/auth/schemas';
import type { SystemPublic } from '@/lib/systems/schemas';
import { parseIdParam } from '@/lib/views/params';
import { assertSameOrigin } from './origin';
import { withErrors, type WithErrorsOptions } from './route';
import { requireUser } from './session';

/** What a handler about one system is given once the preamble has passed. */
export interface SystemAccess<P> {
  user: SessionUser;
  system: SystemPublic;
  /** The route's path parameters as Next gave them (`deviceId` already checked as the system's). */
  params: P;
}

export interface WithSystemAccessOptions extends WithErrorsOptions {
  /** A state-changing handler: refuse a cross-site request (403) before anything else. */
  sameOrigin?: boolean;
}

type SystemHandler<P> = (request: Request, access: SystemAccess<P>) => Promise<Response>;

/**
 * A route handler under /api/systems/{deviceId}: the one preamble every such route repeated —
 * (same origin →) signed in (401) → `deviceId` a UUID (400) → the user may use the system (403/404)
 * — then the handler, all wrapped by withErrors.
 */
export function withSystemAccess<P extends { deviceId: string }>(handler: SystemHandler<P>, options: WithSystemAccessOptions = {}) {
  return withErrors(async (request: Request, context: { params: Promise<P> }) => {
    if (options.sameOrigin) assertSameOrigin(request);
    const user = await requireUser();
    const params = await context.params;
    const system = await requireSystemAccess(user, parseIdParam(params.deviceId, 'system'));
    return handler(request, { user, system, params });
  }, options);
}
