'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useId, useState } from 'react';
import { ApartmentQuotaNote } from '@/components/booking/apartment-quota-note';
import { NextFreeSlots } from '@/components/booking/next-free-slots';
import { Button } from '@/components/ui/button';
import { errorTextClass, inputClass, labelClass, mutedTextClass } from '@/components/ui/styles';
import type { StatefulSlot } from '@/lib/schedule';
import { BOOKING_NOTE_MAX } from '@/lib/reservations/types';
import { useReservationRequest } from './reservation-request';
import { type ChosenResident, ResidentPicker, residentWords } from './resident-picker';
import { ownerText } from './slot-words';

export interface SlotActionsProps {
  slot: StatefulSlot;
  deviceId: string;
  resourceId: string;
  resourceName: string;
  /** The system's zone, for the next free slots' times. */
  timeZone: string;
  /** `?resident=` preselection, when the page was opened from the residents page. */
  preselected: ChosenResident | null;
  close: () => void;
}

/** The dialog's part below the slot's details. */
const SECTION = 'flex flex-col gap-3 border-t border-slate-200 pt-3 dark:border-slate-700';

/**
 * What can be done with the open slot, inside the slot dialog: book a free slot for a resident
 * (found here if none was preselected), or cancel a future booking after a confirmation. Both go
 * through one mutation (useReservationRequest): one Idempotency-Key per intent, so a double click
 * or a retry books once.
 */
export function SlotActions({ slot, deviceId, resourceId, resourceName, timeZone, preselected, close }: SlotActionsProps) {
  const t = useTranslations('slot');
  const [resident, setResident] = useState<ChosenResident | null>(preselected);
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState('');
  const noteId = useId();
  const noteHintId = useId();
  const { send, pending: submitting, error } = useReservationRequest({ onAccepted: close });
  const errorId = useId();
  // The apartment the quota note found at its quota: Book waits until another resident is chosen.
  const [blockedGroup, setBlockedGroup] = useState<string | null>(null);
  const groupId = resident?.userGroupId ?? null;
  const onBlockedChange = useCallback((blocked: boolean) => setBlockedGroup(blocked ? groupId : null), [groupId]);
  const blocked = groupId !== null && blockedGroup === groupId;

  if (slot.pending) {
    return <p className="text-sm font-medium">{t('waiting', { kind: slot.pending.kind })}</p>;
  }

  if (slot.bookable) {
    const book = () => {
      if (!resident) return;
      send({ kind: 'book', deviceId, resourceId, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime, note });
    };
    return (
      <div className={SECTION}>
        <h3 className="text-base font-semibold">{t('bookTitle', { resource: resourceName })}</h3>
        {resident ? (
          <div className="flex flex-col gap-2">
            <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <p>{t.rich('forResident', { resident: residentWords(resident, t), strong: (chunks) => <strong>{chunks}</strong> })}</p>
              <Button variant="secondary" onClick={() => setResident(null)} disabled={submitting}>
                {t('chooseAnother')}
              </Button>
            </div>
            {groupId ? (
              <>
                <ApartmentQuotaNote deviceId={deviceId} groupId={groupId} resourceId={resourceId} slotStartMs={slot.startMs} onBlockedChange={onBlockedChange} />
                <details className="text-sm" open={blocked}>
                  <summary className="cursor-pointer font-medium">{t('nextFree')}</summary>
                  <div className="pt-2">
                    <NextFreeSlots deviceId={deviceId} groupId={groupId} residentUserId={resident.userId} count={3} timeZone={timeZone} />
                  </div>
                </details>
              </>
            ) : null}
          </div>
        ) : (
          <ResidentPicker deviceId={deviceId} onChoose={setResident} />
        )}
        <div className="flex flex-col gap-1">
          <label htmlFor={noteId} className={labelClass}>
            {t('noteLabel')}
          </label>
          <input
            id={noteId}
            type="text"
            value={note}
            maxLength={BOOKING_NOTE_MAX}
            onChange={(e) => setNote(e.target.value)}
            aria-describedby={noteHintId}
            disabled={submitting}
            className={inputClass}
          />
          <p id={noteHintId} className={mutedTextClass}>
            {t('noteHint')}
          </p>
        </div>
        {error ? (
          <p id={errorId} role="alert" className={errorTextClass}>
            {error}
          </p>
        ) : null}
        <div className="flex justify-end">
          <Button disabled={!resident || submitting || blocked} onClick={book} aria-describedby={error ? errorId : undefined}>
            {submitting ? t('booking') : t('book')}
          </Button>
        </div>
      </div>
    );
  }

  const reservation = slot.reservation;
  // A booking whose owner type the service did not name in a known way is shown, never cancelled
  // here; nor is one seen while a first load is still reading (the portal refuses both until then).
  if (slot.state === 'booked' && !slot.checking && reservation && reservation.ownerType !== 'Unknown' && slot.startMs > Date.now()) {
    const cancel = () => send({ kind: 'cancel', deviceId, reservationId: reservation.id });
    return (
      <div className={SECTION}>
        {error ? (
          <p role="alert" className={errorTextClass}>
            {error}
          </p>
        ) : null}
        {confirming ? (
          <div role="group" aria-label={t('confirmCancel')} className="flex flex-col gap-2">
            <p className="text-sm">{t('cancelQuestion', { owner: slot.ownerLabel ? ownerText(slot.ownerLabel, t) : t('thisResident') })}</p>
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="secondary" onClick={() => setConfirming(false)} disabled={submitting}>
                {t('keepBooking')}
              </Button>
              <Button onClick={cancel} disabled={submitting}>
                {submitting ? t('cancelling') : t('yesCancel')}
              </Button>
            </div>
          </div>
        ) : (
          <div className="flex justify-end">
            <Button variant="secondary" onClick={() => setConfirming(true)}>
              {t('cancelBooking')}
            </Button>
          </div>
        )}
      </div>
    );
  }
  return null;
}
