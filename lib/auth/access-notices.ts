// Access notices: a user's access changed (session version, assigned systems). lib/auth/users.ts
// sends them; lib/events listens and makes that user's open streams re-check.

/**
 * The database channel of access notices (`lib/auth/users.ts` sends them inside the writing
 * statement's transaction): the payload is the user's id, or ALL_USERS.
 */
export const ACCESS_CHANNEL = 'portal_access';
/** An access notice that concerns every user (a system removed for everyone). */
export const ALL_USERS = '*';
