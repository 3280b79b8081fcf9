import type { MessageKeys, Messages, NestedKeyOf } from 'next-intl';

/** Any key of the message catalogue, "errors.quotaReached" (checked against messages/en.json). */
export type MessageKey = MessageKeys<Messages, NestedKeyOf<Messages>>;

export type MessageValues = Record<string, string | number | Date>;

/**
 * A sentence for a person, not yet in a language: what `lib/` returns where it used to return
 * English text (refusal reasons, error answers, summaries). The edge that knows the reader's
 * language renders it: a component with `useTranslations()`, a route handler with the request's
 * locale (lib/i18n/server.ts).
 */
export interface Message {
  key: MessageKey;
  values?: MessageValues;
}

export function msg(key: MessageKey, values?: MessageValues): Message {
  return values === undefined ? { key } : { key, values };
}

export function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && typeof (value as { key?: unknown }).key === 'string';
}
