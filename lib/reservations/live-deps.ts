import 'server-only';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { getDb } from '@/lib/db';
import { getEventBus } from '@/lib/events/bus';
import { getServiceClient } from '@/lib/service';
import { getSystemApiKey } from '@/lib/systems';
import type { ReservationDeps } from './requests';

async function apiKeyFor(deviceId: string): Promise<string> {
  const key = await getSystemApiKey(deviceId);
  if (!key) throw new ApiError('conflict', msg('errors.systemNotConnected'));
  return key;
}

/** The portal's real wiring of lib/reservations: its database, service client, keys and bus. */
export async function getReservationDeps(): Promise<ReservationDeps> {
  const [{ db }, client] = await Promise.all([getDb(), getServiceClient()]);
  return { db, client, apiKeyFor, bus: getEventBus() };
}
