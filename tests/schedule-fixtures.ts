// Shared builders for the schedule tests (imported only by *.test.ts files).
import type { ScheduleReservation } from '@/lib/schedule/types';

let counter = 0;

/** A reservation on resource R1 (unless overridden), owned by a Group by default. */
export function reservation(startTime: string, endTime: string, extra: Partial<ScheduleReservation> = {}): ScheduleReservation {
  counter += 1;
  return {
    id: `r-${counter}`,
    userId: 'u1',
    ownerId: 'g1203',
    ownerType: 'Group',
    status: 'Unused',
    resourceId: 'R1',
    startTime,
    endTime,
    deviceId: 'D1',
    ...extra,
  };
}

export function serviceWindow(startTime: string, endTime: string, extra: Partial<ScheduleReservation> = {}): ScheduleReservation {
  return reservation(startTime, endTime, { ownerType: 'Service', userId: null, ownerId: null, ...extra });
}

/** Every day the same slots, in UTC minutes. */
export const daily = (...slots: [number, number][]): number[][][] => Array.from({ length: 7 }, () => slots.map((s) => [...s]));

/** Five 3-hour slots from 06:00 UTC: 07:00–22:00 local in Stockholm winter. */
export const laundry = daily([360, 180], [540, 180], [720, 180], [900, 180], [1080, 180]);
