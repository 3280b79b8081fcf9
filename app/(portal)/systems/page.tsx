import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { SystemList } from '@/components/shell/system-list';
import { listAccessibleSystems } from '@/lib/auth/access';
import { requirePageUser } from '@/lib/api/session';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('systems');
  return { title: t('title') };
}

export default async function SystemsPage() {
  const user = await requirePageUser('/systems');
  const systems = await listAccessibleSystems(user);
  const t = await getTranslations('systems');
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t('title')}</h1>
      {systems.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-300">
          {user.role === 'admin' ? t('noneAdmin') : t('noneManager')}
        </p>
      ) : (
        <SystemList systems={systems} label={t('yourSystems')} />
      )}
    </div>
  );
}
