// Which Idempotency-Key a mutation is sent with.
//
// The portal (lib/reservations/requests.ts) keeps the first answer to each key of a user: the same
// key again gets that answer and makes no second upstream call; the same key for a different
// request is refused (422). So one key stands for one attempt at one intent:
// - a retry of an attempt that got no answer (the portal unreachable, the connection broken, an
//   answer that was not the portal's) reuses its key: if the first attempt did arrive, the retry
//   gets its answer instead of booking a second time;
// - once the portal has answered (202, or an error of its own), that attempt is over; trying again
//   is a new attempt with a new key (the old one would only repeat the stored answer);
// - a different intent (another resident, another slot) never shares a key.

import { isHttpError } from './fetch-json';

export const newIdempotencyKey = (): string => crypto.randomUUID();

/**
 * Whether the portal answered a mutation definitely: success (no error), or an error body of its
 * own (`HttpError.code`). No answer, or one that was not the portal's, leaves the outcome open.
 */
export function wasAnswered(error: unknown): boolean {
  if (error === null || error === undefined) return true;
  return isHttpError(error) && error.code !== null;
}

/**
 * The keys of one place where a user acts (e.g. one opening of the slot dialog). `intent` names
 * what is asked, the same words for the same request (e.g. "book <slot> for <resident>").
 */
export class IntentKeys {
  #open: { intent: string; key: string } | null = null;

  constructor(private readonly newKey: () => string = newIdempotencyKey) {}

  /** The key to send `intent` with: the open attempt's when it is the same intent, else a new one. */
  keyFor(intent: string): string {
    if (this.#open?.intent !== intent) this.#open = { intent, key: this.newKey() };
    return this.#open.key;
  }

  /** After a send of `intent` ended: an answered attempt is over; an unanswered one keeps its key for the retry. */
  settled(intent: string, error: unknown): void {
    if (this.#open?.intent === intent && wasAnswered(error)) this.#open = null;
  }
}
