import type { Metadata } from 'next';
import { FallbackMessage } from '@/components/shell/fallback-page';

export const metadata: Metadata = { title: 'No access' };

// forbidden() in a portal page (403): a system the manager is not assigned to.
export default function PortalForbidden() {
  return <FallbackMessage kind="forbidden" signedIn />;
}
