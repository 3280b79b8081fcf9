import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { FallbackMessage } from '@/components/shell/fallback-page';
import { PortalShell } from '@/components/shell/portal-shell';
import { getSession } from '@/lib/api/session';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('errorPages');
  return { title: t('notFound.metaTitle') };
}

// An address that matches no page (404): in the portal's frame for a signed-in user, with a way back.
export default async function NotFound() {
  const user = await getSession();
  if (user) {
    return (
      <PortalShell user={user}>
        <FallbackMessage kind="not-found" signedIn />
      </PortalShell>
    );
  }
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-16">
      <FallbackMessage kind="not-found" signedIn={false} />
    </main>
  );
}
