'use client';

import { PageError } from '@/components/page-error';

export default function SystemError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <PageError title="System" reset={reset} />;
}
