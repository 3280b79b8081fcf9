import type { ReactNode } from 'react';
import { LiveEvents } from '@/components/booking/live-events';
import { PortalShell } from '@/components/shell/portal-shell';
import { pageLatestEventId, requirePageUser } from '@/lib/api/session';

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser();
  // The live stream starts after the newest event this render could reflect (read with the session).
  const lastEventId = await pageLatestEventId();
  return (
    <PortalShell user={user}>
      <LiveEvents lastEventId={lastEventId}>{children}</LiveEvents>
    </PortalShell>
  );
}
