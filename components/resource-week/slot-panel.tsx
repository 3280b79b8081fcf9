'use client';

import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { type ReactNode, useId } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { mutedTextClass, termClass } from '@/components/ui/styles';
import { formatDate, formatDayTime } from '@/lib/i18n/format';
import type { Locale } from '@/lib/i18n/config';
import type { StatefulSlot } from '@/lib/schedule';
import type { BookingOrigin } from '@/lib/reservations/types';
import { anonymisedResidentWords } from '@/components/booking/words';
import { type SlotT, daysAheadValues, ownerText, useSlotWords } from './slot-words';

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

function describeAvailability(slot: StatefulSlot, t: SlotT, closedText: (reason: string) => string, locale: Locale): string {
  if (slot.bookable) return t('availability.bookable');
  if (slot.closed) return closedText(slot.closed.reason);
  if (slot.isCurrent) return t('availability.running');
  if (slot.isPast) return t('availability.over');
  if (slot.state === 'loading') return t('availability.checking');
  if (slot.beyondHorizon && slot.state === 'free') {
    // The rule's own sentence when a room group's "only N days ahead" is what forbids it.
    const rule = daysAheadValues(slot, locale);
    return rule ? t('availability.beyondDaysAhead', rule) : t('availability.beyondHorizon');
  }
  return t('availability.taken');
}

/**
 * Who holds the booking: the resident's name where the portal knows it, the apartment, and how it
 * was booked when a manager booked it here (with their note).
 */
export function BookingDetails({ slot, origin, deviceId }: { slot: StatefulSlot; origin: BookingOrigin | null; deviceId?: string }): ReactNode {
  const t = useTranslations('slot');
  const tAll = useTranslations();
  const locale = useLocale();
  if (slot.state !== 'booked' && slot.state !== 'used') return null;
  const apartment = slot.ownerLabel ? ownerText(slot.ownerLabel, t) : null;
  const name = origin?.residentName ?? null;
  // Anonymised (issue 47): no name, the apartment in the reader's words says who.
  const holder = origin?.residentAnonymised ? (apartment ?? anonymisedResidentWords(null, { t: tAll })) : name && apartment ? `${name}, ${apartment}` : (name ?? apartment);
  // An apartment's booking (owned by its user group): its page is one click away.
  const owner = slot.reservation;
  const apartmentHref = deviceId && owner?.ownerType === 'Group' && owner.ownerId ? `/systems/${deviceId}/apartments/${owner.ownerId}` : null;
  return (
    <>
      {holder ? (
        <>
          <dt className={termClass}>{t('bookedFor')}</dt>
          <dd>
            {holder}
            {apartmentHref ? (
              <>
                {' '}
                <Link href={apartmentHref} className="underline underline-offset-2">
                  {t('openApartment')}
                </Link>
              </>
            ) : null}
          </dd>
        </>
      ) : null}
      {origin ? (
        <>
          <dt className={termClass}>{t('howTerm')}</dt>
          <dd>
            {t('bookedThroughPortal', {
              name: origin.requestedByName ?? t('aManager'),
              date: formatDate(Date.parse(origin.requestedAt), slot.timeZone, locale),
            })}
          </dd>
          {origin.note ? (
            <>
              <dt className={termClass}>{t('noteTerm')}</dt>
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
  const words = useSlotWords();
  const { t, locale } = words;
  return (
    <Dialog open={slot !== null} onClose={onClose} labelledBy={titleId}>
      {slot ? (
        <div className="flex flex-col gap-4 p-5">
          <div>
            <h2 id={titleId} className="text-lg font-semibold">
              {`${words.dayLabel(slot)}, ${words.timeRange(slot)}`}
            </h2>
            <p className={mutedTextClass}>{t('startsAt', { when: formatDayTime(slot.startMs, slot.timeZone, locale), zone: slot.timeZone })}</p>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className={termClass}>{t('stateTerm')}</dt>
            <dd className="font-medium first-letter:uppercase">{words.stateText(slot)}</dd>
            <dt className={termClass}>{t('lengthTerm')}</dt>
            <dd>{words.length(slot)}</dd>
            <BookingDetails slot={slot} origin={origin ?? null} deviceId={deviceId} />
          </dl>
          <p className="text-sm">{describeAvailability(slot, t, words.closedText, words.locale)}</p>
          {children}
          <div className="flex justify-end">
            <Button variant="secondary" onClick={onClose}>
              {t('close')}
            </Button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
