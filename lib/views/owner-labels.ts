import 'server-only';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '@/lib/db';
import { equalsAnyUuid } from '@/lib/db/raw';
import { mirrorReservations, mirrorState } from '@/lib/db/schema';
import { readUserGroups } from '@/lib/mirror/store';
import type { MirrorUserGroup } from '@/lib/mirror/types';
import { createOwnerLabeler, type Owner, type ScheduleReservation } from '@/lib/schedule';

/**
 * Owner labels for a set of reservations, from the mirror only: a Group owner is its apartment;
 * a User owner is the apartment of a group the same user booked for (users are not mirrored, so
 * their group is learnt from their group bookings), else "a resident". Never a name or e-mail.
 * `groupById` holds the current generation's groups (see mirrorSnapshot); with `generation`, the
 * labels come from that generation (a first load's, issue 20), its groups read by id.
 */
export async function ownerLabelsFor(
  db: Database,
  deviceId: string,
  reservations: readonly ScheduleReservation[],
  groupById: ReadonlyMap<string, MirrorUserGroup>,
  options: { generation?: number } = {},
): Promise<(reservation: ScheduleReservation) => Owner | null> {
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
    const m = mirrorReservations;
    const rows = await db
      .selectDistinctOn([m.userId], { userId: m.userId, ownerId: m.ownerId })
      .from(m)
      .innerJoin(
        mirrorState,
        and(eq(mirrorState.deviceId, m.deviceId), options.generation === undefined ? eq(mirrorState.generation, m.generation) : eq(m.generation, options.generation)),
      )
      .where(and(eq(m.deviceId, deviceId), eq(m.ownerType, 'Group'), isNotNull(m.ownerId), equalsAnyUuid(m.userId, [...userIds])))
      .orderBy(m.userId, desc(m.startTime));
    for (const { userId, ownerId } of rows) {
      // Never null: the filter above (the selection's types cannot know that).
      if (userId === null || ownerId === null) continue;
      users.push({ userId, userGroupId: ownerId });
      groupIds.add(ownerId);
    }
  }
  const groups: MirrorUserGroup[] = [];
  const missing: string[] = [];
  for (const id of groupIds) {
    const group = groupById.get(id);
    if (group) groups.push(group);
    else missing.push(id);
  }
  // A generation still being loaded has no snapshot of its groups: those read so far, by id.
  if (options.generation !== undefined && missing.length > 0) groups.push(...(await readUserGroups(db, deviceId, missing, { generation: options.generation })));
  // Group names are not shown: only apartment numbers (createOwnerLabeler falls back to names).
  return createOwnerLabeler({ groups: groups.map((g) => ({ id: g.id, apartmentId: g.apartmentId })), users });
}
