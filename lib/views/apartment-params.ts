import 'server-only';
import { z } from 'zod';
import { ApiError } from '@/lib/api/errors';
import { DAY_PARTS, DEFAULT_NEXT_FREE_COUNT, type DayPart } from '@/lib/schedule/next-free';
import { RESOURCE_KINDS, type ResourceKind } from '@/lib/schedule/resource-kind';
import { MAX_NEXT_FREE } from './apartment-types';

const nextFreeQuerySchema = z.strictObject({
  kind: z.enum(RESOURCE_KINDS, { error: `kind must be one of ${RESOURCE_KINDS.join(', ')}` }).optional(),
  dayPart: z.enum(DAY_PARTS, { error: `dayPart must be one of ${DAY_PARTS.join(', ')}` }).optional(),
  count: z.coerce
    .number({ error: `count must be a whole number from 1 to ${MAX_NEXT_FREE}` })
    .int(`count must be a whole number from 1 to ${MAX_NEXT_FREE}`)
    .min(1, `count must be a whole number from 1 to ${MAX_NEXT_FREE}`)
    .max(MAX_NEXT_FREE, `count must be a whole number from 1 to ${MAX_NEXT_FREE}`)
    .optional(),
});

/** `?kind=&dayPart=&count=` of the next-free route; empty values mean "any"; anything else is a 400 with a sentence. */
export function parseNextFreeQuery(params: URLSearchParams): { kind?: ResourceKind; dayPart?: DayPart; count: number } {
  const raw: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key in raw) throw new ApiError('bad_request', `Give ${key} at most once.`);
    if (value !== '') raw[key] = value;
  }
  const parsed = nextFreeQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = issue?.code === 'unrecognized_keys' ? `Unknown parameter: ${issue.keys.join(', ')} (use kind, dayPart and count).` : `${issue?.message ?? 'Malformed query'}.`;
    throw new ApiError('bad_request', message);
  }
  return { ...parsed.data, count: parsed.data.count ?? DEFAULT_NEXT_FREE_COUNT };
}
