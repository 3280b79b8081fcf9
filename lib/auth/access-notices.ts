// Access notices: a user's access changed (session version, assigned systems). lib/auth/users.ts
// sends them; lib/events listens and makes that user's open streams re-check.

/**
 * The database channel of access notices (`lib/auth/users.ts` sends them inside the writing
 * statement's transaction): the payload is the user's id, ALL_USERS, or a display's displayNotice.
 */
export const ACCESS_CHANNEL = 'portal_access';
/** An access notice that concerns every user (a system removed for everyone). */
export const ALL_USERS = '*';

/** The access notice of a laundry-room display (revoked, rotated): its open streams re-check their token. */
export function displayNotice(displayId: string): string {
  return `display:${displayId}`;
}
