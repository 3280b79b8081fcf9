import { randomUUID } from 'node:crypto';
import type { RequestView } from '@/lib/events/types';

/** Test helper: a pending booking request of the given system, as the event log stores it. */
export function pendingRequestView(deviceId: string): RequestView {
  const now = new Date().toISOString();
  return {
    id: randomUUID(), kind: 'create', status: 'pending', deviceId, resourceId: null, residentUserId: null,
    reservationId: null, startTime: null, endTime: null, requestedBy: 'u1', errorCode: null,
    errorDescription: null, createdAt: now, updatedAt: now, resolvedAt: null,
  };
}
