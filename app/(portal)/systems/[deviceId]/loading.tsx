import { getTranslations } from 'next-intl/server';
import { PageLoading } from '@/components/page-loading';
import { OverviewSkeleton } from '@/components/skeletons';

export default async function Loading() {
  const t = await getTranslations('systems');
  return (
    <PageLoading status={t('loadingSystem')} bars={['h-4 w-40', 'h-8 w-72']}>
      <OverviewSkeleton />
    </PageLoading>
  );
}
