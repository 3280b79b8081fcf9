import { type ScheduleReservation, UNKNOWN_OWNER_LABEL } from './types';

/** The fields of an upstream UserGroup this module reads. */
export interface OwnerGroup {
  id: string;
  name?: string | null;
  apartmentId?: string | null;
}

/** The fields of an upstream UserAccount this module reads. */
export interface OwnerUser {
  userId: string;
  name?: string | null;
  userGroupId?: string | null;
}

/**
 * Builds the `ownerLabel` callback for overlayReservations: a Group owner with an apartment
 * number reads "apartment 1203"; a User owner reads as their apartment when their group has one
 * (residents book per apartment), else their name; anything unknown reads "a resident".
 */
export function createOwnerLabeler(data: {
  groups?: readonly OwnerGroup[];
  users?: readonly OwnerUser[];
}): (reservation: ScheduleReservation) => string {
  const groups = new Map((data.groups ?? []).map((g) => [g.id, g]));
  const users = new Map((data.users ?? []).map((u) => [u.userId, u]));
  const groupLabel = (id: string | null | undefined): string | null => {
    const group = id ? groups.get(id) : undefined;
    if (!group) return null;
    if (group.apartmentId) return `apartment ${group.apartmentId}`;
    return group.name ? group.name : null;
  };
  return (reservation) => {
    if (reservation.ownerType === 'Service') return 'maintenance';
    // Not guessed at: the booking is shown as held, by an owner of a kind the portal does not know.
    if (reservation.ownerType === 'Unknown') return UNKNOWN_OWNER_LABEL;
    if (reservation.ownerType === 'Group') {
      return groupLabel(reservation.ownerId) ?? groupLabel(users.get(reservation.userId ?? '')?.userGroupId) ?? 'an apartment';
    }
    const user = users.get(reservation.ownerId ?? '') ?? users.get(reservation.userId ?? '');
    return groupLabel(user?.userGroupId) ?? (user?.name ? user.name : null) ?? 'a resident';
  };
}
