// The auth surface other modules use.
export { checkSystemAccess, listAccessibleSystems, listAccessibleSystemsIn, requireSystemAccess } from './access';
export { getAuthOptions } from './options';
export { getSession, requireAdmin, requirePageAdmin, requirePageUser, requireUser } from './session';
export type { SessionUser } from './schemas';
