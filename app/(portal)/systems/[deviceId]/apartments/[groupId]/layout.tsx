import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { requirePageUser } from '@/lib/auth/session';
import { apartmentKnown, portalApartmentDeps } from '@/lib/views/apartment';
import { isUuid, pageSystem } from '@/lib/views/page-access';

/**
 * Checks that the system has the apartment before the page's loading state starts streaming, so
 * that an unknown (or tampered) group id is a real 404, as the system layout does for systems.
 */
export default async function ApartmentLayout({ children, params }: { children: ReactNode; params: Promise<{ deviceId: string; groupId: string }> }) {
  const { deviceId, groupId } = await params;
  const system = await pageSystem(await requirePageUser(`/systems/${deviceId}/apartments/${groupId}`), deviceId);
  if (!isUuid(groupId) || (await apartmentKnown(await portalApartmentDeps(), system, groupId.toLowerCase())) === false) notFound();
  return children;
}
