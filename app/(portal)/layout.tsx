import type { ReactNode } from 'react';
import { LiveEvents } from '@/components/booking/live-events';
import { PortalShell } from '@/components/shell/portal-shell';
import { requirePageUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { latestEventId } from '@/lib/events/store';

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser();
  // The live stream starts after the newest event this render could reflect.
  const lastEventId = await getDb()
    .then(({ db }) => latestEventId(db))
    .catch(() => 0);
  return (
    <PortalShell user={user}>
      <LiveEvents lastEventId={lastEventId}>{children}</LiveEvents>
    </PortalShell>
  );
}
