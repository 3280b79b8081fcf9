'use client';

import { useTranslations } from 'next-intl';
import { PageError } from '@/components/page-error';

export default function ApartmentError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations('apartment');
  return <PageError title={t('pageTitle')} reset={reset} />;
}
