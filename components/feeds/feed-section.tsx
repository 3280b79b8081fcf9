'use client';

import { useMutation } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { errorTextClass, mutedTextClass } from '@/components/ui/styles';
import { useErrorText } from '@/components/use-error-text';
import { fetchJson } from '@/lib/client/fetch-json';
import { formatDayTime } from '@/lib/i18n/format';
import type { FeedSummary, FeedTarget, IssuedFeed } from '@/lib/feeds/feeds';
import { FeedUrl } from './feed-url';

export interface FeedSectionProps {
  deviceId: string;
  target: FeedTarget;
  /** The room's or apartment's active feeds, read by the page. */
  initialFeeds: FeedSummary[];
  /** The system's zone: when a feed was made is said in it, like every time on the page. */
  timeZone: string;
}

type Pending = { action: 'rotate' | 'revoke'; feed: FeedSummary };

/**
 * "Calendar feed" on a room's or an apartment's page: make a feed (its address shown once, with
 * Copy), and the active feeds with Rotate and Revoke, each confirmed first.
 */
export function FeedSection({ deviceId, target, initialFeeds, timeZone }: FeedSectionProps) {
  const t = useTranslations('feeds');
  const tc = useTranslations('common');
  const locale = useLocale();
  const errorText = useErrorText();
  const headingId = useId();
  const listHeadingId = useId();
  const [feeds, setFeeds] = useState(initialFeeds);
  const [issued, setIssued] = useState<IssuedFeed | null>(null);
  const [done, setDone] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);

  const create = useMutation({
    mutationFn: (idempotencyKey: string) =>
      fetchJson<IssuedFeed>('/api/feeds', { method: 'POST', idempotencyKey, body: { deviceId, ...target } }),
    onSuccess: (answer) => {
      setFeeds((list) => [answer.feed, ...list.filter((f) => f.id !== answer.feed.id)]);
      setIssued(answer);
      setDone('');
    },
  });
  const rotate = useMutation({
    mutationFn: (feedId: string) => fetchJson<IssuedFeed>(`/api/feeds/${feedId}/rotate`, { method: 'POST', idempotencyKey: crypto.randomUUID() }),
    onSuccess: (answer) => {
      setFeeds((list) => list.map((f) => (f.id === answer.feed.id ? answer.feed : f)));
      setIssued(answer);
      setDone(t('rotated'));
    },
  });
  const revoke = useMutation({
    mutationFn: async (feedId: string) => {
      await fetchJson(`/api/feeds/${feedId}`, { method: 'DELETE', idempotencyKey: crypto.randomUUID() });
      return feedId;
    },
    onSuccess: (feedId) => {
      setFeeds((list) => list.filter((f) => f.id !== feedId));
      setIssued((shown) => (shown?.feed.id === feedId ? null : shown));
      setDone(t('revoked'));
    },
  });
  const failed = create.error ?? rotate.error ?? revoke.error;
  const busy = create.isPending || rotate.isPending || revoke.isPending;
  const when = (iso: string) => formatDayTime(Date.parse(iso), timeZone, locale);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3" data-testid="calendar-feed">
      <h2 id={headingId} className="text-lg font-semibold">
        {t('heading')}
      </h2>
      <p className={mutedTextClass}>{target.scope === 'room' ? t('introRoom') : t('introApartment')}</p>
      <div>
        <Button onClick={() => create.mutate(crypto.randomUUID())} disabled={busy}>
          {create.isPending ? t('creating') : t('create')}
        </Button>
      </div>
      {failed ? (
        <p role="alert" className={errorTextClass}>
          {errorText(failed)}
        </p>
      ) : null}
      {issued ? <FeedUrl key={issued.url} url={issued.url} /> : null}
      <p role="status" className="text-sm text-emerald-800 dark:text-emerald-200">
        {done}
      </p>
      <h3 id={listHeadingId} className="font-semibold">
        {t('activeHeading')}
      </h3>
      {feeds.length === 0 ? (
        <p className={mutedTextClass}>{t('none')}</p>
      ) : (
        <ul aria-labelledby={listHeadingId} className="flex flex-col gap-2">
          {feeds.map((feed) => {
            const created = when(feed.createdAt);
            return (
              <li key={feed.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-300 px-3 py-2 dark:border-slate-700">
                <span className="text-sm">
                  {feed.createdByName === null ? t('createdByRemoved', { created }) : t('createdBy', { created, name: feed.createdByName })}
                  {feed.rotatedAt ? ` · ${t('rotatedAt', { rotated: when(feed.rotatedAt) })}` : null}
                </span>
                <span className="flex gap-2">
                  <Button variant="secondary" disabled={busy} aria-label={t('rotateLabel', { created })} onClick={() => setPending({ action: 'rotate', feed })}>
                    {t('rotate')}
                  </Button>
                  <Button variant="secondary" disabled={busy} aria-label={t('revokeLabel', { created })} onClick={() => setPending({ action: 'revoke', feed })}>
                    {t('revoke')}
                  </Button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={pending?.action === 'revoke' ? t('confirmRevokeTitle') : t('confirmRotateTitle')}
        body={pending?.action === 'revoke' ? t('confirmRevoke') : t('confirmRotate')}
        confirmLabel={pending?.action === 'revoke' ? t('confirmRevokeButton') : t('confirmRotateButton')}
        cancelLabel={tc('cancel')}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending?.action === 'revoke') revoke.mutate(pending.feed.id);
          else if (pending) rotate.mutate(pending.feed.id);
          setPending(null);
        }}
      />
    </section>
  );
}
