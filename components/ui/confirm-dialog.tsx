'use client';

import { type ReactNode, useId, useState } from 'react';
import { confirmationMatches } from '@/lib/client/typed-confirmation';
import { Button } from './button';
import { Dialog } from './dialog';
import { inputClass, labelClass, mutedTextClass } from './styles';

/** A confirmation typed out (a resident's name or e-mail address) before the button is offered. */
export interface TypedConfirmation {
  /** The field's label ("Type their name or e-mail address to confirm"). */
  label: string;
  /** What the field accepts, compared as lib/client/typed-confirmation.ts does (the server checks it again). */
  accepted: string[];
}

export interface ConfirmDialogProps {
  /** Shown as a modal while true. */
  open: boolean;
  /** The question, as the dialog's heading and accessible name ("Switch off Entré?"). */
  title: string;
  /** The consequences, below the title. */
  body: ReactNode;
  /** The button that goes ahead ("Switch off"). */
  confirmLabel: string;
  cancelLabel: string;
  /** Asked to be typed before the button works; its text is handed to onConfirm. */
  typed?: TypedConfirmation;
  /** Called on the confirming button (with the typed text, when asked for); the dialog closes through onCancel's owner as well. */
  onConfirm: (typed?: string) => void;
  /** Cancel, Escape, or a click on the backdrop. */
  onCancel: () => void;
}

/**
 * "Are you sure?" before an action that cannot be taken back (revoking, rotating, deleting): a
 * modal named by its question, with the consequences, Cancel and the action's own button.
 */
export function ConfirmDialog({ open, title, body, confirmLabel, cancelLabel, typed, onConfirm, onCancel }: ConfirmDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onCancel} labelledBy={titleId}>
      {/* Mounted while open only (Dialog), so the typed text starts empty at every opening. */}
      <ConfirmBody titleId={titleId} title={title} body={body} confirmLabel={confirmLabel} cancelLabel={cancelLabel} typed={typed} onConfirm={onConfirm} onCancel={onCancel} />
    </Dialog>
  );
}

function ConfirmBody({ titleId, title, body, confirmLabel, cancelLabel, typed, onConfirm, onCancel }: Omit<ConfirmDialogProps, 'open'> & { titleId: string }) {
  const fieldId = useId();
  const [text, setText] = useState('');
  const ready = !typed || confirmationMatches(text, typed.accepted);
  return (
    <div className="flex flex-col gap-4 p-5">
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      <div className={mutedTextClass}>{body}</div>
      {typed ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={fieldId} className={labelClass}>
            {typed.label}
          </label>
          <input id={fieldId} type="text" autoComplete="off" spellCheck={false} value={text} onChange={(e) => setText(e.target.value)} className={inputClass} />
        </div>
      ) : null}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button onClick={() => onConfirm(typed ? text : undefined)} disabled={!ready}>
          {confirmLabel}
        </Button>
      </div>
    </div>
  );
}
