import type { Metadata } from 'next';
import { FallbackMessage } from '@/components/shell/fallback-page';

export const metadata: Metadata = { title: 'Page not found' };

// notFound() in a portal page (404), inside the portal's frame.
export default function PortalNotFound() {
  return <FallbackMessage kind="not-found" signedIn />;
}
