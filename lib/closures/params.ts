import 'server-only';
import { z } from 'zod';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';

const uuid = z.uuid();

/** The {closureId} path parameter, or a 400 saying it must be a UUID. */
export function parseClosureId(value: string | undefined): string {
  const parsed = uuid.safeParse(value);
  if (!parsed.success) throw new ApiError('bad_request', msg('errors.closureIdInvalid'));
  return parsed.data.toLowerCase();
}
