import 'server-only';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { z } from 'zod';
import { isApiError } from '@/lib/api/errors';
import { requireSystemAccess } from '@/lib/auth/access';
import type { SessionUser } from '@/lib/auth/schemas';
import type { SystemPublic } from '@/lib/systems/schemas';

const uuid = z.uuid();

/**
 * For pages: a system the user may see, else the 404 page (no one learns which systems exist).
 * Once per page render for the same user and id (generateMetadata and the page both ask).
 */
export const pageSystem = cache(async (user: SessionUser, deviceId: string): Promise<SystemPublic> => {
  if (!uuid.safeParse(deviceId).success) notFound();
  try {
    return await requireSystemAccess(user, deviceId.toLowerCase());
  } catch (error) {
    if (isApiError(error) && (error.code === 'forbidden' || error.code === 'not_found')) notFound();
    throw error;
  }
});

export function isUuid(value: string): boolean {
  return uuid.safeParse(value).success;
}
