import { getTranslations } from 'next-intl/server';
import { LoadingBlock, PageLoading } from '@/components/page-loading';
import { ResultsSkeleton } from '@/components/skeletons';

export default async function Loading() {
  const t = await getTranslations('residents');
  return (
    <PageLoading status={t('searching')} bars={['h-8 w-40']}>
      <LoadingBlock className="h-11 w-full max-w-md" />
      <ResultsSkeleton />
    </PageLoading>
  );
}
