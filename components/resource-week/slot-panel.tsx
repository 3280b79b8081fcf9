'use client';

import { type ReactNode, useId } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { mutedTextClass, termClass } from '@/components/ui/styles';
import { formatDayTime, slotStateText, slotTimeRange } from '@/lib/schedule/labels';
import type { StatefulSlot } from '@/lib/schedule';

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

/** Details of one slot in a modal dialog (components/ui/dialog: focus stays inside, Escape closes it). */
export function SlotPanel({ slot, onClose, children }: SlotPanelProps) {
  const titleId = useId();
  return (
    <Dialog open={slot !== null} onClose={onClose} labelledBy={titleId}>
      {slot ? (
        <div className="flex flex-col gap-4 p-5">
          <div>
            <h2 id={titleId} className="text-lg font-semibold">
              {slot.dayLabel}, {slotTimeRange(slot)}
            </h2>
            <p className={mutedTextClass}>{formatDayTime(slot.startMs, slot.timeZone)} ({slot.timeZone})</p>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className={termClass}>State</dt>
            <dd className="font-medium first-letter:uppercase">{slotStateText(slot)}</dd>
            <dt className={termClass}>Length</dt>
            <dd>{slot.lengthMinutes} minutes</dd>
          </dl>
          <p className="text-sm">{describeAvailability(slot)}</p>
          {children}
          <div className="flex justify-end">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
