import type { ReactNode } from 'react';
import { requirePageUser } from '@/lib/api/session';
import { pageSystem } from '@/lib/views/page-access';

/**
 * Checks access to the system before the pages' loading states start streaming, so that an unknown
 * system is a real 404 and another manager's system a real 403 (thrown inside a page under a
 * loading.tsx, Next could only answer 200). pageSystem is cached: the pages' own calls are free.
 */
export default async function SystemLayout({ children, params }: { children: ReactNode; params: Promise<{ deviceId: string }> }) {
  const { deviceId } = await params;
  await pageSystem(await requirePageUser(`/systems/${deviceId}`), deviceId);
  return children;
}
