import { getTranslations } from 'next-intl/server';
import { PageLoading } from '@/components/page-loading';
import { ResultsSkeleton } from '@/components/skeletons';

// The heading and the search box belong to the residents layout, which stays mounted.
export default async function Loading() {
  const t = await getTranslations('residents');
  return (
    <PageLoading status={t('searching')} bars={[]}>
      <ResultsSkeleton />
    </PageLoading>
  );
}
