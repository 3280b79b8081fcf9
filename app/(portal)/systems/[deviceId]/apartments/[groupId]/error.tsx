'use client';

import { PageError } from '@/components/page-error';

export default function ApartmentError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <PageError title="Apartment" reset={reset} />;
}
