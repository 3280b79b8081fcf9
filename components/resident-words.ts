import type { useTranslations } from 'next-intl';
import { apartmentLabel, residentName } from '@/lib/residents/search';
import type { ApartmentHit, ResidentHit } from '@/lib/residents/search';
import { apartmentNumber } from '@/lib/i18n/format';

type ResidentsT = ReturnType<typeof useTranslations<'residents'>>;

/** "Apartment LGH 1001" / "Lägenhet LGH 1001", "Unnamed apartment" or "No apartment". */
export function apartmentWords(hit: Pick<ApartmentHit, 'apartmentId' | 'groupName' | 'groupId'>, t: ResidentsT): string {
  const { kind, label } = apartmentLabel(hit);
  return t('apartment', { kind, label: apartmentNumber(label) });
}

/** The system's name, or "Unnamed system". */
export function systemWords(hit: Pick<ApartmentHit, 'systemName'>, t: ResidentsT): string {
  return hit.systemName || t('unnamedSystem');
}

/** The resident's name, or "Unnamed resident". */
export function residentWords(resident: Pick<ResidentHit, 'name'>, t: ResidentsT): string {
  return residentName(resident) || t('unnamedResident');
}
