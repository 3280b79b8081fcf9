import { getTranslations } from 'next-intl/server';
import { LoadingBlock, PageLoading } from '@/components/page-loading';
import { GridSkeleton } from '@/components/skeletons';

export default async function Loading() {
  const t = await getTranslations('systems');
  return (
    <PageLoading status={t('loadingWeek')} bars={['h-4 w-56', 'h-8 w-64']}>
      <LoadingBlock className="h-11 w-full" />
      <GridSkeleton />
    </PageLoading>
  );
}
