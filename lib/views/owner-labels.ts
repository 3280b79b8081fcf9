import 'server-only';
import type { SqlRunner } from '@/shared/sql-runner';
import type { MirrorUserGroup } from '@/lib/mirror/types';
import { createOwnerLabeler, type ScheduleReservation } from '@/lib/schedule';

/**
 * Owner labels for a set of reservations, from the mirror only: a Group owner is its apartment;
 * a User owner is the apartment of a group the same user booked for (users are not mirrored, so
 * their group is learnt from their group bookings), else "a resident". Never a name or e-mail.
 * `groupById` holds the current generation's groups (see mirrorSnapshot).
 */
export async function ownerLabelsFor(
  sql: SqlRunner,
  deviceId: string,
  reservations: readonly ScheduleReservation[],
  groupById: ReadonlyMap<string, MirrorUserGroup>,
): Promise<(reservation: ScheduleReservation) => string> {
  const groupIds = new Set<string>();
  const userIds = new Set<string>();
  for (const r of reservations) {
    if (r.ownerType === 'Group' && r.ownerId) groupIds.add(r.ownerId);
    if (r.ownerType === 'User') {
      const id = r.ownerId ?? r.userId;
      if (id) userIds.add(id);
    }
  }
  const users: { userId: string; userGroupId: string }[] = [];
  if (userIds.size > 0) {
    const { rows } = await sql.query<{ user_id: string; owner_id: string }>(
      `SELECT DISTINCT ON (r.user_id) r.user_id, r.owner_id
         FROM mirror_reservations r JOIN mirror_state s ON s.device_id = r.device_id AND s.generation = r.generation
        WHERE r.device_id = $1 AND r.owner_type = 'Group' AND r.owner_id IS NOT NULL AND r.user_id = ANY($2::uuid[])
        ORDER BY r.user_id, r.start_time DESC`,
      [deviceId, [...userIds]],
    );
    for (const row of rows) {
      users.push({ userId: row.user_id, userGroupId: row.owner_id });
      groupIds.add(row.owner_id);
    }
  }
  const groups: MirrorUserGroup[] = [];
  for (const id of groupIds) {
    const group = groupById.get(id);
    if (group) groups.push(group);
  }
  // Group names are not shown: only apartment numbers (createOwnerLabeler falls back to names).
  return createOwnerLabeler({ groups: groups.map((g) => ({ id: g.id, apartmentId: g.apartmentId })), users });
}
