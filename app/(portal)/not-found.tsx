import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { FallbackMessage } from '@/components/shell/fallback-page';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('errorPages');
  return { title: t('notFound.metaTitle') };
}

// notFound() in a portal page (404), inside the portal's frame.
export default function PortalNotFound() {
  return <FallbackMessage kind="not-found" signedIn />;
}
