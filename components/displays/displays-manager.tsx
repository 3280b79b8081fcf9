'use client';

import { useMutation } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { errorTextClass, inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import { useErrorText } from '@/components/use-error-text';
import { fetchJson } from '@/lib/client/fetch-json';
import { formatDayTime } from '@/lib/i18n/format';
import type { DisplaySummary, IssuedDisplay } from '@/lib/displays/displays';

export interface DisplaysManagerProps {
  deviceId: string;
  systemName: string;
  timeZone: string;
  rooms: { id: string; name: string }[];
  initial: DisplaySummary[];
}

type Pending = { action: 'rotate' | 'revoke'; display: DisplaySummary };

/** The display's address as a QR code, drawn in the browser (the address never leaves it). */
function QrCode({ url, label }: { url: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // Loaded only when an address is shown: the library stays out of the page's first load.
    void import('qrcode').then((qr) => qr.toDataURL(url, { margin: 1, width: 240 })).then((data) => {
      if (live) setSrc(data);
    });
    return () => {
      live = false;
    };
  }, [url]);
  // eslint-disable-next-line @next/next/no-img-element -- a data: URL made here; nothing to optimise
  return src ? <img src={src} alt={label} width={240} height={240} className="rounded bg-white p-1" /> : null;
}

/**
 * "Displays" of a system: make one (a name, all or some rooms, language, apartment numbers off by
 * default) in one click on the prefilled form; its address is shown once with a QR code to open on
 * the device; the active displays with Rename (in the row), Rotate and Switch off, the last two
 * confirmed first.
 */
export function DisplaysManager({ deviceId, systemName, timeZone, rooms, initial }: DisplaysManagerProps) {
  const t = useTranslations('displays');
  const tc = useTranslations('common');
  const locale = useLocale();
  const errorText = useErrorText();
  const ids = { name: useId(), language: useId(), apartments: useId(), rooms: useId(), list: useId(), url: useId(), rename: useId() };
  const [displays, setDisplays] = useState(initial);
  const [name, setName] = useState(systemName);
  const [language, setLanguage] = useState<'sv' | 'en'>('sv');
  const [showApartments, setShowApartments] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [issued, setIssued] = useState<IssuedDisplay | null>(null);
  const [done, setDone] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  /** The display whose name is being edited in its row, and the name typed so far. */
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);

  const create = useMutation({
    mutationFn: () =>
      fetchJson<IssuedDisplay>('/api/displays', {
        method: 'POST',
        idempotencyKey: crypto.randomUUID(),
        body: { deviceId, name, locale: language, showApartments, ...(chosen.length > 0 ? { resourceIds: chosen } : {}) },
      }),
    onSuccess: (answer) => {
      setDisplays((list) => [answer.display, ...list]);
      setIssued(answer);
      setDone(t('created', { name: answer.display.name }));
    },
  });
  const rotate = useMutation({
    mutationFn: (displayId: string) => fetchJson<IssuedDisplay>(`/api/displays/${displayId}/rotate`, { method: 'POST', idempotencyKey: crypto.randomUUID() }),
    onSuccess: (answer) => {
      setDisplays((list) => list.map((d) => (d.id === answer.display.id ? answer.display : d)));
      setIssued(answer);
      setDone(t('rotated', { name: answer.display.name }));
    },
  });
  const revoke = useMutation({
    mutationFn: async (display: DisplaySummary) => {
      await fetchJson(`/api/displays/${display.id}`, { method: 'DELETE', idempotencyKey: crypto.randomUUID() });
      return display;
    },
    onSuccess: (display) => {
      setDisplays((list) => list.filter((d) => d.id !== display.id));
      setIssued((shown) => (shown?.display.id === display.id ? null : shown));
      setDone(t('revoked', { name: display.name }));
    },
  });
  const rename = useMutation({
    mutationFn: async ({ display, to }: { display: DisplaySummary; to: string }) => {
      const answer = await fetchJson<{ display: DisplaySummary }>(`/api/displays/${display.id}`, { method: 'PATCH', idempotencyKey: crypto.randomUUID(), body: { name: to } });
      return { from: display.name, display: answer.display };
    },
    onSuccess: ({ from, display }) => {
      setDisplays((list) => list.map((d) => (d.id === display.id ? display : d)));
      setIssued((shown) => (shown?.display.id === display.id ? { ...shown, display } : shown));
      setRenaming(null);
      setDone(t('renamed', { from, to: display.name }));
    },
  });
  const failed = create.error ?? rotate.error ?? revoke.error ?? rename.error;
  const busy = create.isPending || rotate.isPending || revoke.isPending || rename.isPending;
  const roomName = new Map(rooms.map((r) => [r.id, r.name]));
  const scopeOf = (d: DisplaySummary) =>
    d.resourceIds === null ? t('allRooms') : d.resourceIds.map((id) => roomName.get(id) ?? t('unlistedRoom')).join(', ');

  return (
    <div className="flex flex-col gap-6">
      <form
        className="flex flex-col gap-3 rounded-md border border-slate-300 p-4 dark:border-slate-700"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <h2 className="text-lg font-semibold">{t('createHeading')}</h2>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.name} className={labelClass}>
            {t('nameLabel')}
          </label>
          <input id={ids.name} className={inputClass} value={name} maxLength={80} required onChange={(e) => setName(e.target.value)} />
        </div>
        <fieldset className="flex flex-col gap-1">
          <legend className={labelClass}>{t('roomsLabel')}</legend>
          <p id={ids.rooms} className={mutedTextClass}>
            {t('roomsHint')}
          </p>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {rooms.map((room) => (
              <label key={room.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={chosen.includes(room.id)}
                  aria-describedby={ids.rooms}
                  onChange={(e) => setChosen((list) => (e.target.checked ? [...list, room.id] : list.filter((id) => id !== room.id)))}
                />
                {room.name}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.language} className={labelClass}>
            {t('languageLabel')}
          </label>
          <select id={ids.language} className={inputClass} value={language} onChange={(e) => setLanguage(e.target.value === 'en' ? 'en' : 'sv')}>
            <option value="sv">{t('language.sv')}</option>
            <option value="en">{t('language.en')}</option>
          </select>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input id={ids.apartments} type="checkbox" checked={showApartments} onChange={(e) => setShowApartments(e.target.checked)} />
          {t('apartmentsLabel')}
        </label>
        <p className={mutedTextClass}>{t('privacyNote')}</p>
        <div>
          <Button type="submit" disabled={busy}>
            {create.isPending ? t('creating') : t('create')}
          </Button>
        </div>
      </form>
      {failed ? (
        <p role="alert" className={errorTextClass}>
          {errorText(failed)}
        </p>
      ) : null}
      <p role="status" className="text-sm text-emerald-800 dark:text-emerald-200">
        {done}
      </p>
      {issued ? (
        <div className="flex flex-col gap-2 rounded-md border border-amber-400 bg-amber-50 p-3 dark:border-amber-600 dark:bg-amber-950">
          <label htmlFor={ids.url} className={labelClass}>
            {t('urlLabel', { name: issued.display.name })}
          </label>
          <input id={ids.url} type="text" readOnly value={issued.url} onFocus={(e) => e.currentTarget.select()} className={`${inputClass} font-mono text-xs`} />
          <div className="flex flex-wrap items-start gap-4">
            <QrCode key={issued.url} url={issued.url} label={t('qrLabel', { name: issued.display.name })} />
            <p className={mutedTextClass}>
              {t('shownOnce')}{' '}
              <a href={issued.url} target="_blank" rel="noreferrer" className="text-blue-700 underline underline-offset-2 dark:text-blue-300">
                {t('open')}
              </a>
            </p>
          </div>
        </div>
      ) : null}
      <section aria-labelledby={ids.list} className="flex flex-col gap-2">
        <h2 id={ids.list} className="text-lg font-semibold">
          {t('activeHeading')}
        </h2>
        {displays.length === 0 ? (
          <p className={mutedTextClass}>{t('none')}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {displays.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-300 px-3 py-2 dark:border-slate-700">
                {renaming?.id === d.id ? (
                  <form
                    className="flex w-full flex-wrap items-end gap-2"
                    onSubmit={(event) => {
                      event.preventDefault();
                      rename.mutate({ display: d, to: renaming.name });
                    }}
                  >
                    <span className="flex min-w-0 flex-1 flex-col gap-1">
                      <label htmlFor={ids.rename} className={labelClass}>
                        {t('renameField', { name: d.name })}
                      </label>
                      <input
                        id={ids.rename}
                        className={inputClass}
                        value={renaming.name}
                        maxLength={80}
                        required
                        autoFocus
                        onChange={(e) => setRenaming({ id: d.id, name: e.target.value })}
                        onKeyDown={(e) => {
                          if (e.key === 'Escape') setRenaming(null);
                        }}
                      />
                    </span>
                    <span className="flex gap-2">
                      <Button type="submit" disabled={busy}>
                        {rename.isPending ? t('renaming') : t('renameSave')}
                      </Button>
                      <Button variant="secondary" onClick={() => setRenaming(null)}>
                        {tc('cancel')}
                      </Button>
                    </span>
                  </form>
                ) : (
                  <>
                    <span className="flex min-w-0 flex-col text-sm">
                      <span className="font-medium break-words">{d.name}</span>
                      <span className={mutedTextClass}>
                        {scopeOf(d)} · {t(`language.${d.locale}`)} · {d.showApartments ? t('withApartments') : t('withoutApartments')} ·{' '}
                        {t('createdAt', { created: formatDayTime(Date.parse(d.createdAt), timeZone, locale) })}
                      </span>
                    </span>
                    <span className="flex flex-wrap gap-2">
                      <Button variant="secondary" disabled={busy} aria-label={t('renameLabel', { name: d.name })} onClick={() => setRenaming({ id: d.id, name: d.name })}>
                        {t('rename')}
                      </Button>
                      <Button variant="secondary" disabled={busy} aria-label={t('rotateLabel', { name: d.name })} onClick={() => setPending({ action: 'rotate', display: d })}>
                        {t('rotate')}
                      </Button>
                      <Button variant="secondary" disabled={busy} aria-label={t('revokeLabel', { name: d.name })} onClick={() => setPending({ action: 'revoke', display: d })}>
                        {t('revoke')}
                      </Button>
                    </span>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={pending !== null}
        title={pending ? t(pending.action === 'revoke' ? 'confirmRevokeTitle' : 'confirmRotateTitle', { name: pending.display.name }) : ''}
        body={pending?.action === 'revoke' ? t('confirmRevoke') : t('confirmRotate')}
        confirmLabel={pending?.action === 'revoke' ? t('confirmRevokeButton') : t('confirmRotateButton')}
        cancelLabel={tc('cancel')}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending?.action === 'revoke') revoke.mutate(pending.display);
          else if (pending) rotate.mutate(pending.display.id);
          setPending(null);
        }}
      />
    </div>
  );
}
