'use client';

import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { errorText, type Translate } from '@/lib/client/error-text';

/**
 * `const errorText = useErrorText()` → `errorText(query.error)`: a failed fetch (HttpError) or a
 * Message as a sentence in the reader's language (lib/client/error-text.ts).
 */
export function useErrorText(): (error: unknown) => string {
  const t = useTranslations() as unknown as Translate;
  return useCallback((error: unknown) => errorText(error, t), [t]);
}
