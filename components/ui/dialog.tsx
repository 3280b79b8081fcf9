'use client';

import { type ReactNode, useEffect, useRef } from 'react';

export interface DialogProps {
  /** Shown as a modal while true. */
  open: boolean;
  /** Escape, a click on the backdrop, or a close of the dialog itself. */
  onClose: () => void;
  /** Id of the dialog's title (its accessible name). */
  labelledBy: string;
  /** Rendered only while open. */
  children: ReactNode;
}

/**
 * A modal dialog on the native <dialog>: showModal() moves focus inside, makes the rest of the
 * page inert and lets Escape close it; a click on the backdrop closes it too. On closing, focus
 * goes back to where it was when the dialog opened (if that element is still there).
 */
export function Dialog({ open, onClose, labelledBy, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    }
    if (!open && dialog.open) {
      dialog.close();
      const target = returnTo.current;
      returnTo.current = null;
      const active = document.activeElement;
      if (target?.isConnected && (active === null || active === document.body || dialog.contains(active))) target.focus();
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself) closes it.
        if (event.target === event.currentTarget) onClose();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-slate-300 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      {open ? children : null}
    </dialog>
  );
}
