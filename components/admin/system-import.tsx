'use client';

import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { errorTextClass, inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import { useErrorText } from '@/components/use-error-text';
import { fetchJson } from '@/lib/client/fetch-json';
import { newIdempotencyKey } from '@/lib/client/idempotency';

type Column = 'name' | 'street' | 'city' | 'area';

/** The import route's answer (app/api/admin/systems/import/route.ts). */
interface ImportAnswer {
  applied: boolean;
  kind: 'csv' | 'xlsx';
  rows: number;
  unchanged: number;
  changes: { row: number; deviceId: string; current: string; changes: Partial<Record<Column, { from: string | null; to: string | null }>> }[];
  errors: { row: number; column: string | null; message: string }[];
}

const COLUMNS: Column[] = ['name', 'street', 'city', 'area'];

/**
 * Names, streets, cities and areas of many systems from a file: upload → what changes, row by
 * row (old → new), and every row's errors → confirm. A file with errors cannot be confirmed; the
 * server applies a file whole or not at all.
 */
export function SystemImport() {
  const t = useTranslations('systemImport');
  const errorText = useErrorText();
  const router = useRouter();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const send = (confirm: boolean) => (chosen: File) =>
    fetchJson<ImportAnswer>(`/api/admin/systems/import${confirm ? '?confirm=1' : ''}`, { method: 'POST', idempotencyKey: newIdempotencyKey(), body: chosen });
  const preview = useMutation({ mutationFn: send(false) });
  const apply = useMutation({ mutationFn: send(true), onSuccess: () => router.refresh() });
  const plan = preview.data;
  const blank = (v: string | null) => (v === null || v === '' ? t('blank') : v);

  return (
    <div className="flex flex-col gap-3">
      <form
        className="flex flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (file) {
            apply.reset();
            preview.mutate(file);
          }
        }}
      >
        <label htmlFor={fileId} className={labelClass}>{t('file')}</label>
        <input
          id={fileId}
          type="file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            preview.reset();
            apply.reset();
          }}
          className={inputClass}
          aria-describedby={`${fileId}-hint`}
        />
        <p id={`${fileId}-hint`} className="text-xs text-slate-600 dark:text-slate-400">{t('hint')}</p>
        <Button type="submit" variant="secondary" disabled={!file || preview.isPending} className="self-start">
          {preview.isPending ? t('reading') : t('preview')}
        </Button>
      </form>
      {preview.error ? <p role="alert" className={errorTextClass}>{errorText(preview.error)}</p> : null}
      {plan ? (
        <section aria-label={t('previewLabel')} className="flex flex-col gap-2">
          <p role="status" className={mutedTextClass}>{t('summary', { rows: plan.rows, changes: plan.changes.length, unchanged: plan.unchanged, errors: plan.errors.length })}</p>
          {plan.errors.length > 0 ? (
            <div role="alert" className="flex flex-col gap-1">
              <p className={errorTextClass}>{t('nothingApplied')}</p>
              <ul aria-label={t('errorsLabel')} className="list-disc pl-5 text-sm">
                {plan.errors.map((e, i) => (
                  <li key={i}>{t('rowError', { row: e.row, message: e.message })}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {plan.changes.length > 0 ? (
            <ul aria-label={t('changesLabel')} className="flex flex-col gap-2 text-sm">
              {plan.changes.map((c) => (
                <li key={c.deviceId} className="rounded-md border border-slate-200 p-2 dark:border-slate-700">
                  <p className="font-medium">{t('changeOf', { row: c.row, name: c.current })}</p>
                  <ul className="pl-3">
                    {COLUMNS.filter((col) => c.changes[col]).map((col) => (
                      <li key={col} className="break-words">{t('changeLine', { column: col, from: blank(c.changes[col]!.from), to: blank(c.changes[col]!.to) })}</li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          ) : null}
          {plan.errors.length === 0 && plan.changes.length > 0 && file ? (
            <Button onClick={() => apply.mutate(file)} disabled={apply.isPending || apply.isSuccess} className="self-start">
              {apply.isPending ? t('applying') : t('apply', { count: plan.changes.length })}
            </Button>
          ) : null}
          <p role="status" className={apply.error ? errorTextClass : mutedTextClass}>
            {apply.error ? errorText(apply.error) : apply.data ? t('applied', { count: apply.data.changes.length }) : ''}
          </p>
        </section>
      ) : null}
    </div>
  );
}
