import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getLocale, getTranslations } from 'next-intl/server';
import { MailStatusBadge } from '@/components/emails/mail-status-badge';
import { RetryMailButton } from '@/components/emails/retry-mail-button';
import { cardClass, mutedTextClass, termClass } from '@/components/ui/styles';
import { isLocale } from '@/lib/i18n/config';
import { isApiError } from '@/lib/errors/api-error';
import { requirePageUser } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { formatDayTime } from '@/lib/i18n/format';
import { previewOf, readMailFor } from '@/lib/mail/view';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('emails');
  return { title: t('detailTitle') };
}

type Props = { params: Promise<{ mailId: string }> };

export default async function EmailPage({ params }: Props) {
  const { mailId } = await params;
  const user = await requirePageUser(`/emails/${encodeURIComponent(mailId)}`);
  const [t, rawLocale] = await Promise.all([getTranslations('emails'), getLocale()]);
  const locale = isLocale(rawLocale) ? rawLocale : 'sv';
  const { db } = await getDb();
  let row;
  try {
    row = await readMailFor(db, user, mailId);
  } catch (error) {
    if (isApiError(error) && error.code === 'not_found') notFound();
    throw error;
  }
  const preview = await previewOf(row);
  const zone = row.facts.timeZone;
  const when = (d: Date | null) => (d ? formatDayTime(d.getTime(), zone, locale) : '–');
  return (
    <div className="flex flex-col gap-4">
      <Link href="/emails" className="text-sm underline">{t('back')}</Link>
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t('detailTitle')}</h1>
        <p className={mutedTextClass}>{row.subject ?? preview.subject}</p>
      </header>
      <dl className={`${cardClass} grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm`}>
        <dt className={termClass}>{t('colStatus')}</dt>
        <dd>
          <MailStatusBadge status={row.status} label={t(`status.${row.status}`)} />
          {row.skipReason ? <span className="ml-2">{t('skippedBecause', { reason: t(`skip.${row.skipReason}`) })}</span> : null}
        </dd>
        <dt className={termClass}>{t('to')}</dt>
        <dd>{row.recipient ? `${row.recipientName ?? ''} <${row.recipient}>`.trim() : t('noAddress')}</dd>
        <dt className={termClass}>{t('subject')}</dt>
        <dd>{row.subject ?? preview.subject}</dd>
        <dt className={termClass}>{t('colKind')}</dt>
        <dd>{t(`kind.${row.kind}`)}</dd>
        <dt className={termClass}>{t('colAttempts')}</dt>
        <dd>{row.attempts}</dd>
        {row.lastError ? (
          <>
            <dt className={termClass}>{t('colError')}</dt>
            <dd className="break-words">{row.lastError}</dd>
          </>
        ) : null}
        {row.status === 'queued' ? (
          <>
            <dt className={termClass}>{t('nextAttempt')}</dt>
            <dd>{when(row.nextAttemptAt)}</dd>
          </>
        ) : null}
        {/* A kept or skipped message was never sent: its time is when it was kept, or not sent. */}
        <dt className={termClass}>{t('sentAtLabel', { status: row.status })}</dt>
        <dd>{when(row.sentAt)}</dd>
        <dt className={termClass}>{t('messageId')}</dt>
        <dd className="break-all font-mono text-xs">{row.messageId ?? preview.messageId}</dd>
      </dl>
      <div className="flex flex-wrap gap-4 text-sm">
        <a href={`/api/emails/${row.id}?file=eml`} className="underline" download>{t('downloadEml')}</a>
        <a href={`/api/emails/${row.id}?file=ics`} className="underline" download>{t('downloadIcs')}</a>
      </div>
      {row.status === 'failed' ? <RetryMailButton mailId={row.id} /> : null}
      <section className="flex flex-col gap-2" aria-labelledby="mail-preview">
        <h2 id="mail-preview" className="text-lg font-medium">{t('preview')}</h2>
        <pre className={`${cardClass} whitespace-pre-wrap text-sm`} data-testid="mail-text">{preview.text}</pre>
        {/* The HTML part opens as its own document, sandboxed by its Content-Security-Policy. */}
        <a href={`/api/emails/${row.id}?file=html`} className="self-start text-sm underline" target="_blank" rel="noopener">{t('openHtml')}</a>
      </section>
    </div>
  );
}
