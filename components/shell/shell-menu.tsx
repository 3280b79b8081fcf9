'use client';

import { useTranslations } from 'next-intl';
import { usePathname } from 'next/navigation';
import { useId, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';

/**
 * On a phone the navigation and the account sit behind a "Menu" button, so the header stays one
 * row; from the `sm` breakpoint they are always shown. It closes by itself on navigation.
 */
export function ShellMenu({ children }: { children: ReactNode }) {
  const t = useTranslations('shell');
  const pathname = usePathname();
  // Open for the page it was opened on only: a navigation closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const id = useId();
  return (
    <>
      <Button
        variant="secondary"
        className="sm:hidden print:hidden"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpenOn(open ? null : pathname)}
      >
        {t('menu')}
      </Button>
      <div
        id={id}
        className={`${open ? 'flex' : 'hidden'} order-last w-full flex-col gap-3 pb-1 sm:order-none sm:flex sm:w-auto sm:flex-1 sm:flex-row sm:items-center sm:justify-between sm:gap-4 sm:pb-0`}
      >
        {children}
      </div>
    </>
  );
}
