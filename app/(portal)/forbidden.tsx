import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { FallbackMessage } from '@/components/shell/fallback-page';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('errorPages');
  return { title: t('forbidden.metaTitle') };
}

// forbidden() in a portal page (403): a system the manager is not assigned to.
export default function PortalForbidden() {
  return <FallbackMessage kind="forbidden" signedIn />;
}
