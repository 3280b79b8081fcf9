'use client';

import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { errorTextClass, mutedTextClass } from '@/components/ui/styles';
import { useErrorText } from '@/components/use-error-text';
import { fetchJson } from '@/lib/client/fetch-json';

/** "Send again now" for a failed e-mail: queued at once with a fresh count of attempts. */
export function RetryMailButton({ mailId }: { mailId: string }) {
  const t = useTranslations('emails');
  const errorText = useErrorText();
  const router = useRouter();
  const retry = useMutation({
    mutationFn: () => fetchJson<{ id: string; status: string }>(`/api/emails/${mailId}`, { method: 'POST', idempotencyKey: crypto.randomUUID() }),
    onSuccess: () => router.refresh(),
  });
  return (
    <div className="flex flex-col gap-1">
      <Button onClick={() => retry.mutate()} disabled={retry.isPending || retry.isSuccess} className="self-start">
        {retry.isPending ? t('retrying') : t('retry')}
      </Button>
      <p role="status" className={retry.error ? errorTextClass : mutedTextClass}>
        {retry.error ? errorText(retry.error) : retry.isSuccess ? t('retried') : ''}
      </p>
    </div>
  );
}
