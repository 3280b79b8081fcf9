'use client';

import Link from 'next/link';
import { type ReactNode, useId } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { mutedTextClass, termClass } from '@/components/ui/styles';
import { formatDate, formatDayTime, slotStateText, slotTimeRange } from '@/lib/schedule/labels';
import type { StatefulSlot } from '@/lib/schedule';
import type { BookingOrigin } from '@/lib/views/types';

export interface SlotPanelProps {
  slot: StatefulSlot | null;
  /** How the slot's booking was made, when it was booked through the portal. */
  origin?: BookingOrigin | null;
  onClose: () => void;
  /** The system, for the link to the booking apartment's page. */
  deviceId?: string;
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

/**
 * Who holds the booking: the resident's name where the portal knows it, the apartment, and how it
 * was booked when a manager booked it here (with their note).
 */
export function BookingDetails({ slot, origin, deviceId }: { slot: StatefulSlot; origin: BookingOrigin | null; deviceId?: string }): ReactNode {
  if (slot.state !== 'booked' && slot.state !== 'used') return null;
  const apartment = slot.ownerLabel;
  const name = origin?.residentName ?? null;
  const holder = name && apartment ? `${name}, ${apartment}` : (name ?? apartment);
  // An apartment's booking (owned by its user group): its page is one click away.
  const owner = slot.reservation;
  const apartmentHref = deviceId && owner?.ownerType === 'Group' && owner.ownerId ? `/systems/${deviceId}/apartments/${owner.ownerId}` : null;
  return (
    <>
      {holder ? (
        <>
          <dt className={termClass}>Booked for</dt>
          <dd>
            {holder}
            {apartmentHref ? (
              <>
                {' '}
                <Link href={apartmentHref} className="underline underline-offset-2">
                  Open the apartment
                </Link>
              </>
            ) : null}
          </dd>
        </>
      ) : null}
      {origin ? (
        <>
          <dt className={termClass}>How</dt>
          <dd>
            Booked through the portal by {origin.requestedByName ?? 'a manager'} on {formatDate(Date.parse(origin.requestedAt), slot.timeZone)}
          </dd>
          {origin.note ? (
            <>
              <dt className={termClass}>Note</dt>
              <dd className="break-words">{origin.note}</dd>
            </>
          ) : null}
        </>
      ) : null}
    </>
  );
}

/** Details of one slot in a modal dialog (components/ui/dialog: focus stays inside, Escape closes it). */
export function SlotPanel({ slot, origin, deviceId, onClose, children }: SlotPanelProps) {
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
            <BookingDetails slot={slot} origin={origin ?? null} deviceId={deviceId} />
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
