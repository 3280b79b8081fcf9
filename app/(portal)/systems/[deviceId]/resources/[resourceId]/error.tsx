'use client';

import { PageError } from '@/components/page-error';

export default function ResourceError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <PageError title="Resource" reset={reset} />;
}
