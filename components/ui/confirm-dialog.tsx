'use client';

import { type ReactNode, useId } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { mutedTextClass } from './styles';

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
  /** Called on the confirming button; the dialog closes through onCancel's owner as well. */
  onConfirm: () => void;
  /** Cancel, Escape, or a click on the backdrop. */
  onCancel: () => void;
}

/**
 * "Are you sure?" before an action that cannot be taken back (revoking, rotating, deleting): a
 * modal named by its question, with the consequences, Cancel and the action's own button.
 */
export function ConfirmDialog({ open, title, body, confirmLabel, cancelLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onCancel} labelledBy={titleId}>
      <div className="flex flex-col gap-4 p-5">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <div className={mutedTextClass}>{body}</div>
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="secondary" onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button onClick={onConfirm}>{confirmLabel}</Button>
        </div>
      </div>
    </Dialog>
  );
}
