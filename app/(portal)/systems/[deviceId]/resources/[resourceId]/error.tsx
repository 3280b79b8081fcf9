'use client';

import { useTranslations } from 'next-intl';
import { PageError } from '@/components/page-error';

export default function ResourceError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations('systems');
  return <PageError title={t('resource')} reset={reset} />;
}
