import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { FallbackMessage } from '@/components/shell/fallback-page';
import { PortalShell } from '@/components/shell/portal-shell';
import { getSession } from '@/lib/api/session';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('errorPages');
  return { title: t('forbidden.metaTitle') };
}

// forbidden() outside the portal's pages (403); app/(portal)/forbidden.tsx serves those inside it.
export default async function Forbidden() {
  const user = await getSession();
  if (user) {
    return (
      <PortalShell user={user}>
        <FallbackMessage kind="forbidden" signedIn />
      </PortalShell>
    );
  }
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-16">
      <FallbackMessage kind="forbidden" signedIn={false} />
    </main>
  );
}
