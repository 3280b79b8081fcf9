'use client';

import { useTranslations } from 'next-intl';
import { PageError } from '@/components/page-error';

export default function SystemError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations('systems');
  return <PageError title={t('system')} reset={reset} />;
}
