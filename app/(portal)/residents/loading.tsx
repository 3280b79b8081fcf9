import { getTranslations } from 'next-intl/server';
import { ResultsSkeleton } from '@/components/skeletons';

export default async function Loading() {
  const t = await getTranslations('residents');
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <p className="sr-only" role="status">
        {t('searching')}
      </p>
      <ResultsSkeleton />
    </div>
  );
}
