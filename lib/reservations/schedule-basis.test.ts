import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import { reservationRequests } from '@/lib/db/schema';
import { InProcessEventBus } from '@/lib/events/bus';
import { readResources, readTimeSchedules } from '@/lib/mirror/store';
import { expandRange, type ScheduleBasis } from '@/lib/schedule';
import type { Sandbox, SandboxFixtures } from '@/sandbox';
import { describeWithDb } from '@/tests/db';
import { startConnectedSandbox } from '@/tests/connected-sandbox';
import type { ServiceClient } from '@/lib/service';
import { requestBooking } from './requests';
import { bookingInputSchema } from './schemas';

const SE = 'Europe/Stockholm';
const DAY = 86_400_000;

// A system whose schedules mean local wall time (the sandbox reads them on Stockholm's clocks):
// the portal set to 'local' offers and sends exactly the slots the service accepts, across the
// autumn DST change; set to 'utc' (the interface's reading) every slot it offers is an hour off.
describeWithDb('the schedule time basis against a service that means local time', (ctx) => {
  let sandbox: Sandbox;
  let fixtures: SandboxFixtures;
  let client: ServiceClient;
  let apiKey: string;
  let deviceId: string;
  // Friday 23 October 2026 12:00 UTC: the week ahead holds the change back to CET (25 October).
  const now = new Date('2026-10-23T12:00:00Z');

  beforeAll(async () => {
    ({ sandbox, fixtures, client, deviceId, apiKey } = await startConnectedSandbox(ctx().handle.db, { sql: ctx().handle.sql, preset: 'tiny', seed: 3, quotaPerGroup: 10, scheduleTimeZone: SE, now: () => now }));
  }, 120_000);
  afterAll(() => sandbox.stop());

  async function bookEach(basis: ScheduleBasis, days: number[]) {
    const { db } = ctx().handle;
    const resident = fixtures.residents.find((r) => r.deviceId === deviceId && r.resourceIds.length > 0)!;
    const resource = (await readResources(db, deviceId)).find((r) => r.id === resident.resourceIds[0])!;
    const schedule = (await readTimeSchedules(db, deviceId)).find((s) => s.id === resource.timeScheduleId)!;
    const outcomes: string[] = [];
    for (const day of days) {
      // The first slot of that local day, as this basis reads the schedule.
      const from = Date.parse(`2026-10-${day}T00:00:00+02:00`);
      const slot = expandRange(schedule.schedule, from, from + DAY, SE, basis).find((s) => s.date === `2026-10-${day}`)!;
      const answer = await requestBooking(
        { db, client, apiKeyFor: () => Promise.resolve(apiKey), bus: new InProcessEventBus(), now: () => now },
        {
          requester: { id: randomUUID(), name: 'Basis Test' },
          // The portal's quota matches the sandbox's (quotaPerGroup: 10).
          system: { deviceId, name: 'Local', timeZone: SE, scheduleBasis: basis, bookingQuota: 10 },
          idempotencyKey: randomUUID(),
          input: bookingInputSchema.parse({ deviceId, resourceId: resource.id, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime }),
        },
      ).catch((e: unknown) => e);
      if (answer instanceof ApiError) {
        outcomes.push(`${slot.startLabel} refused: ${answer.message}`);
        continue;
      }
      await sandbox.drain();
      const id = 'request' in (answer as object) ? (answer as { request: { id: string } }).request.id : '';
      const [row] = await db.select({ correlationId: reservationRequests.correlationId }).from(reservationRequests).where(eq(reservationRequests.id, id));
      const stored = (await (await sandbox.fetch(new Request(`http://sandbox.test/_sandbox/requests/${row?.correlationId}`))).json()) as { event?: { eventData?: { succeded?: boolean; errorCode?: string | null } } };
      outcomes.push(`${slot.startLabel} ${stored.event?.eventData?.succeded ? 'booked' : (stored.event?.eventData?.errorCode ?? 'no outcome')}`);
    }
    return outcomes;
  }

  it("local: the slots the portal offers are the service's, before and after the change to winter time", async () => {
    expect(await bookEach('local', [24, 25, 26])).toEqual(['06:00 booked', '06:00 booked', '06:00 booked']);
  });

  it('utc: the same schedule read as UTC minutes is an hour or two off, and the service refuses each', async () => {
    const outcomes = await bookEach('utc', [27, 28]);
    expect(outcomes).toEqual(['07:00 InvalidTimeSlot', '07:00 InvalidTimeSlot']);
  });
});
