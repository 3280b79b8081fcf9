'use client';

import { PageError } from '@/components/page-error';

export default function ResidentsError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <PageError title="Residents" reset={reset} />;
}
