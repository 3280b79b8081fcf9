'use client';

import { useTranslations } from 'next-intl';
import { PageError } from '@/components/page-error';

export default function ResidentsError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations('residents');
  return <PageError title={t('pageTitle')} reset={reset} />;
}
