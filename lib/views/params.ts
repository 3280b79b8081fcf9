import 'server-only';
import { z } from 'zod';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { parseWeekKey } from '@/lib/schedule/week';

const uuid = z.uuid();

/** A UUID path parameter, or a 400 naming it. */
export function parseIdParam(value: string | undefined, what: 'system' | 'resource' | 'apartment'): string {
  const parsed = uuid.safeParse(value);
  if (!parsed.success) throw new ApiError('bad_request', msg('errors.pathIdNotUuid', { what }));
  return parsed.data.toLowerCase();
}

/** The optional `week` search parameter (YYYY-Www), or a 400 saying what is wrong. */
export function parseWeekParam(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const parsed = parseWeekKey(value);
  if (!parsed.ok) throw new ApiError('bad_request', parsed.message);
  return parsed.key;
}
