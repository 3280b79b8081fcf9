import 'server-only';
import { ServiceContractError, ServiceListTooLargeError } from './errors';
import type { SkippedItem } from './schemas';

export interface Page<T> {
  /** The page's usable items, in the order sent. */
  items: T[];
  /** Items of this page the portal could not use (already logged); never fatal to the page. */
  skipped: SkippedItem[];
  /** Token for the next page; null on the last one (an empty string is read as null). */
  continuationToken: string | null;
}

/**
 * A list spread over continuation-token pages. Nothing is fetched until iterated; each iteration
 * starts again from the first page. A page that fails (after the read retries) makes the iteration
 * throw: items already yielded stay yielded, but no iteration ever ends as if complete.
 */
export class Paginator<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: (continuationToken: string | undefined) => Promise<Page<T>>,
    private readonly operation: string,
  ) {}

  /** Every page in order, following `continuationToken` until it is null. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const seen = new Set<string>();
    let token: string | undefined;
    do {
      const page = await this.fetchPage(token);
      yield page;
      token = page.continuationToken ?? undefined;
      if (token !== undefined) {
        // A token we already followed would loop forever.
        if (seen.has(token)) {
          throw new ServiceContractError([{ path: 'continuationToken', message: 'repeats an earlier token' }], {
            operation: this.operation,
          });
        }
        seen.add(token);
      }
    } while (token !== undefined);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /**
   * The whole list, or an error: more than `limit` items throws ServiceListTooLargeError rather
   * than returning a truncated list that looks complete. Skipped items are left out (each page
   * logged them); use `pages()` to see them.
   */
  async toArray({ limit }: { limit: number }): Promise<T[]> {
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError('limit must be a non-negative integer');
    const items: T[] = [];
    for await (const page of this.pages()) {
      if (items.length + page.items.length > limit) {
        throw new ServiceListTooLargeError(limit, { operation: this.operation });
      }
      items.push(...page.items);
    }
    return items;
  }
}
