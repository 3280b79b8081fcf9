'use client';

import { useTranslations } from 'next-intl';
import { ResidentCombobox } from '@/components/resident-combobox';
import type { SlotT } from './slot-words';
import { apartmentNumber } from '@/lib/i18n/format';

/** The resident a booking is for, as the dialog shows them. */
export interface ChosenResident {
  userId: string;
  name: string;
  apartmentId: string | null;
  /** Their apartment's user group (null for a user in no group): what the booking counts against. */
  userGroupId: string | null;
}

/** "Ada Berg, apartment 1203" / "Ada Berg, lägenhet 1203". */
export const residentWords = (r: ChosenResident, t: SlotT) => {
  const name = r.name.trim() || t('unnamedResident');
  return r.apartmentId ? t('residentWithApartment', { name, apartment: apartmentNumber(r.apartmentId) }) : name;
};

export interface ResidentPickerProps {
  deviceId: string;
  onChoose: (resident: ChosenResident) => void;
}

/**
 * Finds a resident of this system inside the slot dialog, with the Residents page's search as
 * you type. Whether they may book the resource is the booking handler's (and the service's) to say.
 */
export function ResidentPicker({ deviceId, onChoose }: ResidentPickerProps) {
  const t = useTranslations('slot');
  return (
    <ResidentCombobox
      label={t('residentLabel')}
      hint={t('residentHint')}
      deviceId={deviceId}
      onPick={(hit, resident) =>
        onChoose({ userId: resident.userId, name: resident.name, apartmentId: hit.apartmentId.trim() || hit.groupName.trim() || null, userGroupId: hit.groupId })
      }
    />
  );
}
