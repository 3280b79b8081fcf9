'use client';

import { type ReactNode, useEffect, useRef } from 'react';
import { formatDayTime, slotStateText, slotTimeRange } from '@/lib/schedule/labels';
import type { StatefulSlot } from '@/lib/schedule';
import { secondaryButtonClass } from '@/components/ui/styles';

export interface SlotPanelProps {
  slot: StatefulSlot | null;
  onClose: () => void;
  /** Room for actions about the slot (the booking dialog plugs in here). */
  children?: ReactNode;
}

function describeAvailability(slot: StatefulSlot): string {
  if (slot.bookable) return 'This slot can be booked.';
  if (slot.isCurrent) return 'This slot is running now.';
  if (slot.isPast) return 'This slot is over.';
  if (slot.beyondHorizon && slot.state === 'free') return 'This slot lies beyond the booking horizon and cannot be booked yet.';
  return 'This slot is taken.';
}

/** Details of one slot in a modal dialog (native <dialog>: focus stays inside, Escape closes it). */
export function SlotPanel({ slot, onClose, children }: SlotPanelProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (slot && !dialog.open) dialog.showModal();
    if (!slot && dialog.open) dialog.close();
  }, [slot]);
  return (
    <dialog
      ref={ref}
      aria-labelledby="slot-panel-title"
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself) closes it.
        if (event.target === event.currentTarget) onClose();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-slate-300 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      {slot ? (
        <div className="flex flex-col gap-4 p-5">
          <div>
            <h2 id="slot-panel-title" className="text-lg font-semibold">
              {slot.dayLabel}, {slotTimeRange(slot)}
            </h2>
            <p className="text-sm text-slate-700 dark:text-slate-300">{formatDayTime(slot.startMs, slot.timeZone)} ({slot.timeZone})</p>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600 dark:text-slate-400">State</dt>
            <dd className="font-medium first-letter:uppercase">{slotStateText(slot)}</dd>
            <dt className="text-slate-600 dark:text-slate-400">Length</dt>
            <dd>{slot.lengthMinutes} minutes</dd>
          </dl>
          <p className="text-sm">{describeAvailability(slot)}</p>
          {children}
          <div className="flex justify-end">
            <button type="button" className={secondaryButtonClass} onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
