import 'server-only';
import { forbidden, notFound } from 'next/navigation';
import { cache } from 'react';
import { z } from 'zod';
import { isApiError } from '@/lib/errors/api-error';
import { requireSystemAccess } from '@/lib/auth/access';
import type { SessionUser } from '@/lib/auth/schemas';
import type { SystemPublic } from '@/lib/systems/schemas';

const uuid = z.uuid();

/**
 * For pages: a system the user may see. Else an admin gets the 404 page for an unknown system, and a
 * manager the 403 page for any system not assigned to them, existing or not (as the API answers).
 * Once per page render for the same user and id (generateMetadata and the page both ask).
 */
export const pageSystem = cache(async (user: SessionUser, deviceId: string): Promise<SystemPublic> => {
  if (!uuid.safeParse(deviceId).success) notFound();
  try {
    return await requireSystemAccess(user, deviceId.toLowerCase());
  } catch (error) {
    if (isApiError(error) && error.code === 'forbidden') forbidden();
    if (isApiError(error) && error.code === 'not_found') notFound();
    throw error;
  }
});

export function isUuid(value: string): boolean {
  return uuid.safeParse(value).success;
}
