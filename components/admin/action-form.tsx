'use client';

import { useTranslations } from 'next-intl';
import { startTransition, useActionState, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, type ButtonVariant } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorTextClass, mutedTextClass } from '@/components/ui/styles';

export interface ActionState {
  ok?: string;
  error?: string;
}

type Action = (state: ActionState, formData: FormData) => Promise<ActionState>;

/** Asked before the action runs (deleting, disconnecting): a modal with the consequences. */
export interface Confirmation {
  title: string;
  body: ReactNode;
  confirmLabel: string;
}

/**
 * A form bound to a server action, announcing its outcome to screen readers. The form is submitted
 * by hand rather than through `action=`, because React resets a form after every action, and an
 * admin whose input was refused must be able to correct it rather than type it again. Fields are
 * emptied only after a success, and only when asked (`resetOnSuccess`): a reset would put a
 * <select> back to the value it was first rendered with, not the one just saved.
 */
export function ActionForm({
  action,
  submitLabel,
  submitAriaLabel,
  submitVariant = 'primary',
  confirm,
  resetOnSuccess = false,
  children,
  className = 'flex flex-col gap-3',
}: {
  action: Action;
  submitLabel: string;
  submitAriaLabel?: string;
  submitVariant?: ButtonVariant;
  confirm?: Confirmation;
  /** Empty the fields after a success (a new entry); settings forms keep showing what was saved. */
  resetOnSuccess?: boolean;
  children: ReactNode;
  className?: string;
}) {
  const t = useTranslations('common');
  const [state, dispatch, pending] = useActionState(action, {});
  const formRef = useRef<HTMLFormElement>(null);
  const [awaiting, setAwaiting] = useState<FormData | null>(null);
  const titleId = useId();

  useEffect(() => {
    if (state.ok && resetOnSuccess) formRef.current?.reset();
  }, [state, resetOnSuccess]);

  const run = (data: FormData) => startTransition(() => dispatch(data));
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    if (confirm) setAwaiting(data);
    else run(data);
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} className={className}>
      {children}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant={submitVariant} disabled={pending} aria-label={submitAriaLabel}>
          {pending ? t('working') : submitLabel}
        </Button>
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">{state.ok}</p>
      </div>
      {state.error ? <p role="alert" className={errorTextClass}>{state.error}</p> : null}
      {confirm ? (
        <Dialog open={awaiting !== null} onClose={() => setAwaiting(null)} labelledBy={titleId}>
          <div className="flex flex-col gap-4 p-5">
            <h2 id={titleId} className="text-lg font-semibold">{confirm.title}</h2>
            <div className={mutedTextClass}>{confirm.body}</div>
            <div className="flex flex-wrap justify-end gap-3">
              <Button variant="secondary" onClick={() => setAwaiting(null)}>{t('cancel')}</Button>
              <Button
                onClick={() => {
                  if (awaiting) run(awaiting);
                  setAwaiting(null);
                }}
              >
                {confirm.confirmLabel}
              </Button>
            </div>
          </div>
        </Dialog>
      ) : null}
    </form>
  );
}
