'use client';

import { ResidentCombobox } from '@/components/resident-combobox';

/** The resident a booking is for, as the dialog shows them. */
export interface ChosenResident {
  userId: string;
  name: string;
  apartmentId: string | null;
  /** Their apartment's user group (null for a user in no group): what the booking counts against. */
  userGroupId: string | null;
}

export const residentWords = (r: ChosenResident) => {
  const name = r.name.trim() || 'Unnamed resident';
  return r.apartmentId ? `${name}, apartment ${r.apartmentId}` : name;
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
  return (
    <ResidentCombobox
      label="Resident"
      hint="Name, apartment, e-mail or reference id."
      deviceId={deviceId}
      onPick={(hit, resident) =>
        onChoose({ userId: resident.userId, name: resident.name, apartmentId: hit.apartmentId.trim() || hit.groupName.trim() || null, userGroupId: hit.groupId })
      }
    />
  );
}
