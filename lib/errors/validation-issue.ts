import type { z } from 'zod';
import { msg, type Message, type MessageValues } from '@/lib/i18n/message';
import type { ValidationKey } from '@/lib/i18n/validation-key';

/** Text the portal echoes is clipped: an issue's path or sentence never grows with the input. */
export const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

type Issue = z.core.$ZodIssue;

const list = (items: readonly unknown[], max = 10) =>
  clip(items.slice(0, max).map((v) => String(v)).join(', ') + (items.length > max ? ', …' : ''), 120);

/**
 * One zod issue as a Message of the `validation` namespace. A custom message that is a catalogue
 * key (vkey) is used with the issue's limits and params; anything else is described by its code,
 * so zod's own English never reaches the caller.
 */
export function issueMessage(issue: Issue): Message {
  const limits: MessageValues = {};
  if ('minimum' in issue) limits.minimum = Number(issue.minimum);
  if ('maximum' in issue) limits.maximum = Number(issue.maximum);
  if (typeof issue.message === 'string' && issue.message.startsWith('validation.')) {
    const params = issue.code === 'custom' ? (issue.params ?? {}) : {};
    const values: MessageValues = { ...limits };
    for (const [name, value] of Object.entries(params)) {
      if (typeof value === 'string' || typeof value === 'number') values[name] = typeof value === 'string' ? clip(value, 60) : value;
    }
    return msg(issue.message as ValidationKey, values);
  }
  switch (issue.code) {
    case 'invalid_type':
      if (/received undefined/.test(issue.message)) return msg('validation.required');
      return msg('validation.invalidType', { expected: String(issue.expected) });
    case 'too_small':
      return msg(
        issue.origin === 'string' ? 'validation.tooShort' : issue.origin === 'array' || issue.origin === 'set' ? 'validation.tooFewItems' : 'validation.tooSmall',
        { minimum: Number(issue.minimum) },
      );
    case 'too_big':
      return msg(
        issue.origin === 'string' ? 'validation.tooLong' : issue.origin === 'array' || issue.origin === 'set' ? 'validation.tooManyItems' : 'validation.tooBig',
        { maximum: Number(issue.maximum) },
      );
    case 'invalid_format':
      return msg('validation.invalidFormat', { format: issue.format });
    case 'invalid_value':
      return msg('validation.invalidValue', { values: list(issue.values) });
    case 'unrecognized_keys':
      return msg('validation.unrecognizedKeys', { count: issue.keys.length, keys: list(issue.keys) });
    case 'not_multiple_of':
      return msg('validation.notMultipleOf', { divisor: Number(issue.divisor) });
    default:
      return msg('validation.invalid');
  }
}

