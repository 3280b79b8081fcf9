'use client';

import { useActionState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { errorTextClass } from '@/components/ui/styles';

export interface ActionState {
  ok?: string;
  error?: string;
}

type Action = (state: ActionState, formData: FormData) => Promise<ActionState>;

/** A form bound to a server action, announcing its outcome to screen readers. */
export function ActionForm({
  action,
  submitLabel,
  submitAriaLabel,
  children,
  className = 'flex flex-col gap-3',
}: {
  action: Action;
  submitLabel: string;
  submitAriaLabel?: string;
  children: ReactNode;
  className?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className={className}>
      {children}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending} aria-label={submitAriaLabel}>
          {pending ? 'Working…' : submitLabel}
        </Button>
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">{state.ok}</p>
      </div>
      {state.error ? <p role="alert" className={errorTextClass}>{state.error}</p> : null}
    </form>
  );
}
