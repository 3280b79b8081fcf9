import 'server-only';
import type { SqlRunner } from '@/lib/db/sql-runner';
import { readResources, readTimeSchedules } from '@/lib/mirror/store';
import type { WeekScheduleInput } from '@/lib/schedule';
import type { MirrorResource } from '@/lib/mirror/types';

export interface ScheduledMirrorResource extends MirrorResource {
  /** The resource's Week schedule; empty when its schedule is missing (shown as "no slots"). */
  schedule: WeekScheduleInput;
}

/** The system's resources with their schedules, from the mirror. */
export async function readScheduledResources(sql: SqlRunner, deviceId: string): Promise<ScheduledMirrorResource[]> {
  const [resources, schedules] = await Promise.all([readResources(sql, deviceId), readTimeSchedules(sql, deviceId)]);
  const byId = new Map(schedules.map((s) => [s.id.toLowerCase(), s.schedule]));
  // timeScheduleId is a plain string upstream; compare case-insensitively like GUIDs.
  return resources.map((r) => ({ ...r, schedule: byId.get(r.timeScheduleId.toLowerCase()) ?? [] }));
}
