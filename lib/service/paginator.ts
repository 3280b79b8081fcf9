import 'server-only';
import { ServiceContractError, ServiceListTooLargeError } from './errors';
import type { SkippedItem } from './schemas';

/**
 * Why a list was not read to its end: its continuation token repeated one already followed
 * ('repeated'), or it still had a next page after LIST_PAGES_MAX pages ('pageLimit').
 */
export type ListIncomplete = 'repeated' | 'pageLimit';

/** The most pages one list is followed for: far beyond any real system (100 items a page). */
export const LIST_PAGES_MAX = 5_000;

/**
 * Asked when a page failed (after the read retries): resolve true to ask for the same page again,
 * from the same continuation token (after whatever wait it chose), false to let the error end the
 * list. `attempt` counts the failures of this page, from 1.
 */
export type PageResume = (failure: { error: unknown; attempt: number; pagesRead: number }) => Promise<boolean>;

export interface Page<T> {
  /** The page's usable items, in the order sent. */
  items: T[];
  /** Items of this page the portal could not use (already logged); never fatal to the page. */
  skipped: SkippedItem[];
  /** Token for the next page; null on the last one (an empty string is read as null). */
  continuationToken: string | null;
  /**
   * Set on the last page yielded when the list did not end: the pages before it and it are what
   * could be read; following on would loop or never stop.
   */
  incomplete?: ListIncomplete;
}

/**
 * A list spread over continuation-token pages. Nothing is fetched until iterated; each iteration
 * starts again from the first page. A page that fails (after the read retries) makes the iteration
 * throw, unless `resume` says to ask for that page again: then the list goes on from where it was,
 * never from the first page. Items already yielded stay yielded, but no iteration ever ends as if
 * complete. A list
 * that does not end (a repeated token, more than `maxPages` pages) ends `pages()` with a page
 * marked `incomplete`, and makes `toArray` and the item iteration throw.
 */
export class Paginator<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: (continuationToken: string | undefined) => Promise<Page<T>>,
    private readonly operation: string,
    private readonly maxPages: number = LIST_PAGES_MAX,
    private readonly resume?: PageResume,
  ) {}

  /** One page, asked for again from the same token while `resume` says so. */
  private async fetchResuming(token: string | undefined, pagesRead: number): Promise<Page<T>> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.fetchPage(token);
      } catch (error) {
        if (!this.resume || !(await this.resume({ error, attempt, pagesRead }))) throw error;
      }
    }
  }

  /** Every page in order, following `continuationToken` until it is null, a token repeats or maxPages are read. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const seen = new Set<string>();
    let token: string | undefined;
    for (let read = 1; ; read += 1) {
      const page = await this.fetchResuming(token, read - 1);
      token = page.continuationToken ?? undefined;
      if (token === undefined) {
        yield page;
        return;
      }
      // A token already followed would loop forever; a list past the cap may never end.
      const incomplete: ListIncomplete | undefined = seen.has(token) ? 'repeated' : read >= this.maxPages ? 'pageLimit' : undefined;
      if (incomplete) {
        yield { ...page, continuationToken: null, incomplete };
        return;
      }
      seen.add(token);
      yield page;
    }
  }

  private incompleteError(reason: ListIncomplete): ServiceContractError {
    const message = reason === 'repeated' ? 'repeats an earlier token' : `did not end within ${this.maxPages} pages`;
    return new ServiceContractError([{ path: 'continuationToken', message }], { operation: this.operation });
  }

  /** Every item; a list that does not end throws (after its items were yielded), never ending as if complete. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) {
      yield* page.items;
      if (page.incomplete) throw this.incompleteError(page.incomplete);
    }
  }

  /**
   * The whole list, or an error: more than `limit` items throws ServiceListTooLargeError rather
   * than returning a truncated list that looks complete, and so does a list that does not end
   * (ServiceContractError). Skipped items are left out (each page logged them); use `pages()` to
   * see them.
   */
  async toArray({ limit }: { limit: number }): Promise<T[]> {
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError('limit must be a non-negative integer');
    const items: T[] = [];
    for await (const page of this.pages()) {
      if (items.length + page.items.length > limit) {
        throw new ServiceListTooLargeError(limit, { operation: this.operation });
      }
      if (page.incomplete) throw this.incompleteError(page.incomplete);
      items.push(...page.items);
    }
    return items;
  }
}
