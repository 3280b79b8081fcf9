import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { FallbackMessage } from '@/components/shell/fallback-page';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('errorPages');
  return { title: t('adminOnly.metaTitle') };
}

// forbidden() in an admin page (requirePageAdmin, 403): a manager is told the area is for admins.
export default function AdminForbidden() {
  return <FallbackMessage kind="admin-only" signedIn />;
}
