import { getTranslations } from 'next-intl/server';
import { LoadingBlock, PageLoading } from '@/components/page-loading';

export default async function Loading() {
  const t = await getTranslations('apartment');
  return (
    <PageLoading status={t('loading')} bars={['h-4 w-56', 'h-8 w-64']}>
      <LoadingBlock className="h-32 w-full" />
      <LoadingBlock className="h-48 w-full" />
    </PageLoading>
  );
}
