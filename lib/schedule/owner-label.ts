import type { Owner, ScheduleReservation } from './types';

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
 * number is that apartment; a User owner is their apartment when their group has one (residents
 * book per apartment), else their name; anything unknown is "some resident". Facts, not words.
 */
export function createOwnerLabeler(data: {
  groups?: readonly OwnerGroup[];
  users?: readonly OwnerUser[];
}): (reservation: ScheduleReservation) => Owner | null {
  const groups = new Map((data.groups ?? []).map((g) => [g.id, g]));
  const users = new Map((data.users ?? []).map((u) => [u.userId, u]));
  const groupLabel = (id: string | null | undefined): Owner | null => {
    const group = id ? groups.get(id) : undefined;
    if (!group) return null;
    if (group.apartmentId) return { kind: 'apartment', apartment: group.apartmentId };
    return group.name ? { kind: 'name', name: group.name } : null;
  };
  return (reservation) => {
    // Maintenance is said by the slot's state, not by an owner.
    if (reservation.ownerType === 'Service') return null;
    // Not guessed at: the booking is shown as held, by an owner of a kind the portal does not know.
    if (reservation.ownerType === 'Unknown') return { kind: 'unknownType' };
    if (reservation.ownerType === 'Group') {
      return groupLabel(reservation.ownerId) ?? groupLabel(users.get(reservation.userId ?? '')?.userGroupId) ?? { kind: 'someApartment' };
    }
    const user = users.get(reservation.ownerId ?? '') ?? users.get(reservation.userId ?? '');
    return groupLabel(user?.userGroupId) ?? (user?.name ? { kind: 'name', name: user.name } : null) ?? { kind: 'someResident' };
  };
}
