'use client';

import { type FormEvent, useId, useState } from 'react';
import { buttonClass, inputClass, secondaryButtonClass } from '@/components/ui/styles';
import type { StatefulSlot } from '@/lib/schedule';
import { fetchJson, HttpError, isHttpError } from '@/lib/client/fetch-json';
import { RESIDENT_QUERY_MAX_LENGTH, type ResidentResult, type ResidentSearchResult } from '@/lib/views/types';
import { useReservationRequest } from './reservation-request';

/** The resident a booking is for, as the dialog shows them. */
export interface ChosenResident {
  userId: string;
  name: string;
  apartmentId: string | null;
}

export interface SlotActionsProps {
  slot: StatefulSlot;
  deviceId: string;
  resourceId: string;
  resourceName: string;
  /** `?resident=` preselection, when the page was opened from the residents page. */
  preselected: ChosenResident | null;
  close: () => void;
}

const residentWords = (r: ChosenResident) => (r.apartmentId ? `${r.name}, apartment ${r.apartmentId}` : r.name);

/**
 * What can be done with the open slot, inside the slot dialog: book a free slot for a resident
 * (found here if none was preselected), or cancel a future booking after a confirmation. Both go
 * through one mutation (useReservationRequest): one Idempotency-Key per intent, so a double click
 * or a retry books once.
 */
export function SlotActions({ slot, deviceId, resourceId, resourceName, preselected, close }: SlotActionsProps) {
  const [resident, setResident] = useState<ChosenResident | null>(preselected);
  const [confirming, setConfirming] = useState(false);
  const { send, pending: submitting, error } = useReservationRequest({ onAccepted: close });
  const errorId = useId();

  if (slot.pending) {
    return <p className="text-sm font-medium">A {slot.pending.kind === 'create' ? 'booking' : 'cancellation'} of this slot is waiting for its outcome.</p>;
  }

  if (slot.bookable) {
    const book = () => {
      if (!resident) return;
      send({ kind: 'book', deviceId, resourceId, residentUserId: resident.userId, startTime: slot.startTime, endTime: slot.endTime });
    };
    return (
      <div className="flex flex-col gap-3 border-t border-slate-200 pt-3 dark:border-slate-700">
        <h3 className="text-base font-semibold">Book {resourceName}</h3>
        {resident ? (
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <p>
              For <strong>{residentWords(resident)}</strong>
            </p>
            <button type="button" className={secondaryButtonClass} onClick={() => setResident(null)} disabled={submitting}>
              Choose another resident
            </button>
          </div>
        ) : (
          <ResidentPicker deviceId={deviceId} resourceId={resourceId} resourceName={resourceName} onChoose={setResident} />
        )}
        {error ? (
          <p id={errorId} role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end">
          <button type="button" className={buttonClass} disabled={!resident || submitting} onClick={book} aria-describedby={error ? errorId : undefined}>
            {submitting ? 'Booking…' : 'Book'}
          </button>
        </div>
      </div>
    );
  }

  const reservation = slot.reservation;
  // A booking whose owner type the service did not name in a known way is shown, never cancelled here.
  if (slot.state === 'booked' && reservation && reservation.ownerType !== 'Unknown' && slot.startMs > Date.now()) {
    const cancel = () => send({ kind: 'cancel', deviceId, reservationId: reservation.id });
    return (
      <div className="flex flex-col gap-3 border-t border-slate-200 pt-3 dark:border-slate-700">
        {error ? (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
        {confirming ? (
          <div role="group" aria-label="Confirm cancellation" className="flex flex-col gap-2">
            <p className="text-sm">Cancel the booking of {slot.ownerLabel ?? 'this resident'}? The slot becomes free for others.</p>
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className={secondaryButtonClass} onClick={() => setConfirming(false)} disabled={submitting}>
                Keep the booking
              </button>
              <button type="button" className={buttonClass} onClick={cancel} disabled={submitting}>
                {submitting ? 'Cancelling…' : 'Yes, cancel the booking'}
              </button>
            </div>
          </div>
        ) : (
          <div className="flex justify-end">
            <button type="button" className={secondaryButtonClass} onClick={() => setConfirming(true)}>
              Cancel booking
            </button>
          </div>
        )}
      </div>
    );
  }
  return null;
}

/** Finds a resident of this system inside the dialog (apartment, e-mail or reference id). */
function ResidentPicker({ deviceId, resourceId, resourceName, onChoose }: { deviceId: string; resourceId: string; resourceName: string; onChoose: (r: ChosenResident) => void }) {
  const [text, setText] = useState('');
  const [results, setResults] = useState<ResidentResult[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();

  const search = async (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const q = text.trim();
    if (q === '') {
      setMessage('Type an apartment number, e-mail address or reference id.');
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const body = await fetchJson<ResidentSearchResult>(`/api/residents?q=${encodeURIComponent(q)}`);
      const here = body.residents.filter((r) => r.deviceId === deviceId);
      setResults(here);
      if (here.length === 0) setMessage(`No resident of this system found for “${q}”.`);
    } catch (error) {
      const failed = isHttpError(error) ? error : new HttpError(0, 'The portal could not be reached. Check the connection and try again.');
      setMessage(failed.message);
      // An answer that was an error replaces the results; an unreachable portal leaves them.
      if (failed.status !== 0) setResults(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <form role="search" aria-label="Find the resident" onSubmit={(e) => void search(e)} className="flex flex-col gap-1" noValidate>
        <label htmlFor={inputId} className="text-sm font-medium">
          Resident (apartment, e-mail or reference id)
        </label>
        <div className="flex gap-2">
          <input id={inputId} className={inputClass} value={text} onChange={(e) => setText(e.target.value)} maxLength={RESIDENT_QUERY_MAX_LENGTH} autoComplete="off" />
          <button type="submit" className={secondaryButtonClass} disabled={busy}>
            {busy ? 'Searching…' : 'Search'}
          </button>
        </div>
      </form>
      {message ? (
        <p role="status" className="text-sm">
          {message}
        </p>
      ) : null}
      {results && results.length > 0 ? (
        <ul aria-label="Residents found" className="flex max-h-48 flex-col gap-1 overflow-auto">
          {results.map((r) => {
            const allowed = r.resources.some((x) => x.id === resourceId);
            const words = residentWords({ userId: r.userId, name: r.name, apartmentId: r.apartmentId });
            return (
              <li key={r.userId} className="flex items-center justify-between gap-2 text-sm">
                <span>
                  {words}
                  {allowed ? '' : ` — not allowed to book ${resourceName}`}
                </span>
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={!allowed}
                  aria-label={`Choose ${words}`}
                  onClick={() => onChoose({ userId: r.userId, name: r.name, apartmentId: r.apartmentId })}
                >
                  Choose
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
