import type { ApartmentTitle } from '@/lib/views/apartment-types';
import type { Words } from '@/components/booking/words';
import { apartmentNumber } from '@/lib/i18n/format';

/** "Apartment 1203" / "Lägenhet 1203", else the group's name, else "Unnamed apartment". */
export function apartmentTitleText(title: ApartmentTitle, t: Words['t']): string {
  return t('apartment.title', { kind: title.kind, apartment: apartmentNumber(title.apartment), name: title.name });
}
