import type { Metadata } from 'next';
import { RequestsList } from '@/components/booking/requests-list';
import { listAccessibleSystems, visibleDeviceIds } from '@/lib/auth/access';
import { requirePageUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { listRequests, REQUESTS_LIMIT_DEFAULT } from '@/lib/reservations';

export const metadata: Metadata = { title: 'Requests' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function RequestsPage({ searchParams }: Props) {
  const user = await requirePageUser('/requests');
  const systems = await listAccessibleSystems(user);
  const raw = (await searchParams).deviceId;
  const wanted = Array.isArray(raw) ? raw[0] : raw;
  // Only a system this user may see can be a filter; anything else shows all of theirs.
  const deviceId = systems.some((s) => s.deviceId === wanted) ? (wanted ?? null) : null;
  const scope = deviceId ? [deviceId] : await visibleDeviceIds(user, systems);
  const requests = await listRequests((await getDb()).db, scope, REQUESTS_LIMIT_DEFAULT);
  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Requests</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">Recent bookings and cancellations made through the portal, updated as their outcomes arrive.</p>
      </header>
      <RequestsList systems={systems.map((s) => ({ deviceId: s.deviceId, name: s.name, timeZone: s.timeZone }))} initialDeviceId={deviceId} initial={requests} />
    </div>
  );
}
