'use client';

import { ResidentFinder } from '@/components/resident-finder';
import { Button } from '@/components/ui/button';
import { isResidentAuthorized } from '@/lib/booking-rules/resident-authorized';

/** The resident a booking is for, as the dialog shows them. */
export interface ChosenResident {
  userId: string;
  name: string;
  apartmentId: string | null;
}

export const residentWords = (r: ChosenResident) => (r.apartmentId ? `${r.name}, apartment ${r.apartmentId}` : r.name);

export interface ResidentPickerProps {
  deviceId: string;
  resourceId: string;
  resourceName: string;
  onChoose: (resident: ChosenResident) => void;
}

/** Finds a resident of this system inside the slot dialog, with the Residents page's finder. */
export function ResidentPicker({ deviceId, resourceId, resourceName, onChoose }: ResidentPickerProps) {
  return (
    <ResidentFinder variant="compact" label="Resident (apartment, e-mail or reference id)" formLabel="Find the resident">
      {({ q, query, formError }) => {
        const here = query.data?.residents.filter((r) => r.deviceId === deviceId) ?? null;
        const message =
          formError ??
          (query.isError
            ? query.error.message
            : here && here.length === 0 && !query.isPlaceholderData
              ? `No resident of this system found for “${q}”.`
              : null);
        return (
          <>
            {message ? (
              <p role="status" className="text-sm">
                {message}
              </p>
            ) : null}
            {here && here.length > 0 ? (
              <ul aria-label="Residents found" className="flex max-h-48 flex-col gap-1 overflow-auto">
                {here.map((r) => {
                  // The same rule the booking handler applies (unknown authorizations are the service's to judge).
                  const allowed = isResidentAuthorized(r.resources?.map((x) => x.id) ?? null, resourceId);
                  const chosen = { userId: r.userId, name: r.name, apartmentId: r.apartmentId };
                  const words = residentWords(chosen);
                  return (
                    <li key={r.userId} className="flex items-center justify-between gap-2 text-sm">
                      <span>
                        {words}
                        {allowed ? '' : ` — not allowed to book ${resourceName}`}
                      </span>
                      <Button variant="secondary" disabled={!allowed} aria-label={`Choose ${words}`} onClick={() => onChoose(chosen)}>
                        Choose
                      </Button>
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </>
        );
      }}
    </ResidentFinder>
  );
}
