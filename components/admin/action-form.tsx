'use client';

import { useTranslations } from 'next-intl';
import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, type ButtonVariant } from '@/components/ui/button';
import { ConfirmDialog, type TypedConfirmation } from '@/components/ui/confirm-dialog';
import { errorTextClass } from '@/components/ui/styles';

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
  /** A text to type before the button works (a resident's name or e-mail), sent as the form's `field`. */
  typed?: TypedConfirmation & { field: string };
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
  disabled = false,
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
  /** Nothing to do now (the button is shown, greyed): the form stays in place, and so does its last outcome. */
  disabled?: boolean;
  children: ReactNode;
  className?: string;
}) {
  const t = useTranslations('common');
  const [state, dispatch, pending] = useActionState(action, {});
  const formRef = useRef<HTMLFormElement>(null);
  const [awaiting, setAwaiting] = useState<FormData | null>(null);

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
        <Button type="submit" variant={submitVariant} disabled={pending || disabled} aria-label={submitAriaLabel}>
          {pending ? t('working') : submitLabel}
        </Button>
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">{state.ok}</p>
      </div>
      {state.error ? <p role="alert" className={errorTextClass}>{state.error}</p> : null}
      {confirm ? (
        <ConfirmDialog
          open={awaiting !== null}
          title={confirm.title}
          body={confirm.body}
          confirmLabel={confirm.confirmLabel}
          cancelLabel={t('cancel')}
          typed={confirm.typed}
          onCancel={() => setAwaiting(null)}
          onConfirm={(typed) => {
            if (awaiting && confirm.typed) awaiting.set(confirm.typed.field, typed ?? '');
            if (awaiting) run(awaiting);
            setAwaiting(null);
          }}
        />
      ) : null}
    </form>
  );
}
