'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatDayTime } from '@/lib/i18n/format';

/** The sheet's "Print" button: the browser's own print dialog (the print CSS makes it one A4 page). */
export function PrintButton() {
  const t = useTranslations('sheet');
  return (
    <Button onClick={() => window.print()} className="min-h-11 print:hidden">
      {t('print')}
    </Button>
  );
}

/**
 * "Printed Wednesday 25 November at 10:12": when the page was made, brought up to date when the
 * browser prints (a sheet left open in a tab is printed later than it was loaded).
 */
export function PrintedAt({ initial, timeZone }: { initial: number; timeZone: string }) {
  const t = useTranslations('sheet');
  const locale = useLocale();
  const [at, setAt] = useState(initial);
  useEffect(() => {
    const update = () => setAt(Date.now());
    window.addEventListener('beforeprint', update);
    return () => window.removeEventListener('beforeprint', update);
  }, []);
  return <>{t('printedAt', { when: formatDayTime(at, timeZone, locale) })}</>;
}
