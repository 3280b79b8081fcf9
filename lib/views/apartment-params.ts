import 'server-only';
import { z } from 'zod';
import { ApiError } from '@/lib/errors/api-error';
import { wholeNumberInput } from '@/lib/http/whole-number';
import { msg } from '@/lib/i18n/message';
import { DAY_PARTS, DEFAULT_NEXT_FREE_COUNT, type DayPart } from '@/lib/schedule/next-free';
import { RESOURCE_KINDS, type ResourceKind } from '@/lib/schedule/resource-kind';
import { MAX_NEXT_FREE } from './apartment-types';

const nextFreeQuerySchema = z.strictObject({
  kind: z.enum(RESOURCE_KINDS).optional(),
  dayPart: z.enum(DAY_PARTS).optional(),
  // Digits only: z.coerce read "0x10" as 16 (issue 47).
  count: z.preprocess(wholeNumberInput, z.number().int().min(1).max(MAX_NEXT_FREE)).optional(),
});

/** `?kind=&dayPart=&count=` of the next-free route; empty values mean "any"; anything else is a 400 with a sentence. */
export function parseNextFreeQuery(params: URLSearchParams): { kind?: ResourceKind; dayPart?: DayPart; count: number } {
  const raw: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key in raw) throw new ApiError('bad_request', msg('errors.paramRepeated', { name: key.slice(0, 40) }));
    if (value !== '') raw[key] = value;
  }
  const parsed = nextFreeQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message =
      issue?.code === 'unrecognized_keys'
        ? msg('errors.nextFreeUnknownParam', { names: issue.keys.slice(0, 5).map((k) => k.slice(0, 40)).join(', ') })
        : issue?.path[0] === 'kind'
          ? msg('errors.nextFreeBadKind', { allowed: RESOURCE_KINDS.join(', ') })
          : issue?.path[0] === 'dayPart'
            ? msg('errors.nextFreeBadDayPart', { allowed: DAY_PARTS.join(', ') })
            : msg('errors.nextFreeBadCount', { max: MAX_NEXT_FREE });
    throw new ApiError('bad_request', message);
  }
  return { ...parsed.data, count: parsed.data.count ?? DEFAULT_NEXT_FREE_COUNT };
}
