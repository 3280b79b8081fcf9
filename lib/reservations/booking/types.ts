import type { Database } from '@/lib/db';
import type { ErrorCode } from '@/lib/errors/api-error';
import type { EventBus } from '@/lib/events/bus-types';
import type { RequestView } from '@/lib/events/types';
import type { Message } from '@/lib/i18n/message';
import type { ScheduleBasis } from '@/lib/schedule';
import type { ServiceClient } from '@/lib/service';

export interface ReservationDeps {
  db: Database;
  client: ServiceClient;
  /** The system's API key; throws an ApiError when the system is not connected. */
  apiKeyFor: (deviceId: string) => Promise<string>;
  bus: EventBus;
  now?: () => Date;
}

/** Who asks: the signed-in portal user. */
export interface Requester {
  id: string;
  name: string;
}

/** The system as the caller already checked it (requireSystemAccess). */
export interface SystemContext {
  deviceId: string;
  name: string;
  timeZone: string;
  /** How far ahead it can be booked (default 28 days). */
  bookingHorizonDays?: number;
  /** What its schedules' minutes mean (default 'utc'). */
  scheduleBasis?: ScheduleBasis;
  /** Future bookings an apartment may hold per room (default 2). */
  bookingQuota?: number;
}

/** What a booking or cancellation call answers: 202 with the request, or a stored first error. */
export type RequestAnswer =
  | { status: 202; request: RequestView }
  | { status: number; error: { code: ErrorCode; message: string; reason?: string; text?: Message } };

/** What a request must match for its Idempotency-Key to be answered again (replay.ts). */
export interface ExpectedRequest {
  kind: 'create' | 'cancel';
  deviceId: string;
  resourceId?: string;
  residentUserId?: string;
  startMs?: number;
  endMs?: number;
  reservationId?: string;
}
