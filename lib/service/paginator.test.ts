import { describe, expect, it } from 'vitest';
import { LIST_PAGES_MAX, Paginator, type Page } from './paginator';

/** A list of `pages` pages of two numbers each, then what `end` says: a null token, a repeat, or tokens forever. */
function list(pages: number, end: 'ends' | 'repeats' | 'endless') {
  let fetched = 0;
  const fetchPage = (token: string | undefined): Promise<Page<number>> => {
    fetched += 1;
    const index = token === undefined ? 0 : Number(token.split(':')[1]);
    const items = index < pages ? [index * 2, index * 2 + 1] : [];
    let next: string | null = index + 1 < pages ? `p:${index + 1}` : null;
    if (next === null && end === 'repeats') next = `p:${Math.max(index, pages - 1)}`;
    if (next === null && end === 'endless') next = `p:${index + 1}`;
    return Promise.resolve({ items, skipped: [], continuationToken: next });
  };
  return { fetchPage, fetched: () => fetched };
}

async function pagesOf<T>(paginator: Paginator<T>): Promise<Page<T>[]> {
  const out: Page<T>[] = [];
  for await (const page of paginator.pages()) out.push(page);
  return out;
}

describe('Paginator', () => {
  it('follows the tokens to the end of a list that ends', async () => {
    const source = list(3, 'ends');
    const pages = await pagesOf(new Paginator(source.fetchPage, 'GET /x'));
    expect(pages.flatMap((p) => p.items)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(pages.some((p) => p.incomplete)).toBe(false);
    expect(await new Paginator(list(3, 'ends').fetchPage, 'GET /x').toArray({ limit: 100 })).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('stops at a repeated token, keeping every page read, the last one marked incomplete', async () => {
    const source = list(3, 'repeats');
    const pages = await pagesOf(new Paginator(source.fetchPage, 'GET /x'));
    expect(pages.flatMap((p) => p.items)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(pages.at(-1)).toMatchObject({ incomplete: 'repeated', continuationToken: null });
    expect(pages.slice(0, -1).every((p) => p.incomplete === undefined)).toBe(true);
    // The repeated page is not fetched again.
    expect(source.fetched()).toBe(3);
  });

  it('stops a list that never ends after maxPages pages (LIST_PAGES_MAX by default)', async () => {
    expect(LIST_PAGES_MAX).toBe(5_000);
    const source = list(3, 'endless');
    const pages = await pagesOf(new Paginator(source.fetchPage, 'GET /x', 10));
    expect(pages).toHaveLength(10);
    expect(source.fetched()).toBe(10);
    expect(pages.flatMap((p) => p.items)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(pages.at(-1)).toMatchObject({ incomplete: 'pageLimit', continuationToken: null });
    const unbounded = list(3, 'endless');
    const all = await pagesOf(new Paginator(unbounded.fetchPage, 'GET /x'));
    expect(all).toHaveLength(LIST_PAGES_MAX);
    expect(all.at(-1)?.incomplete).toBe('pageLimit');
  });

  it('never gives a list that did not end as if complete: toArray and the item iteration throw', async () => {
    await expect(new Paginator(list(3, 'repeats').fetchPage, 'GET /x').toArray({ limit: 100 })).rejects.toMatchObject({ kind: 'contract' });
    await expect(new Paginator(list(3, 'endless').fetchPage, 'GET /x', 10).toArray({ limit: 100 })).rejects.toMatchObject({ kind: 'contract' });
    const seen: number[] = [];
    const iterate = async () => {
      for await (const item of new Paginator(list(2, 'repeats').fetchPage, 'GET /x')) seen.push(item);
    };
    await expect(iterate()).rejects.toMatchObject({ kind: 'contract' });
    expect(seen).toEqual([0, 1, 2, 3]);
  });
});

describe('Paginator resuming a failed page', () => {
  /** Three pages; the second fails `failures` times before it answers. */
  function flaky(failures: number) {
    const asked: (string | undefined)[] = [];
    let left = failures;
    const fetchPage = (token: string | undefined): Promise<Page<number>> => {
      asked.push(token);
      const index = token === undefined ? 0 : Number(token.split(':')[1]);
      if (index === 1 && left > 0) {
        left -= 1;
        return Promise.reject(new Error('503'));
      }
      return Promise.resolve({ items: [index], skipped: [], continuationToken: index < 2 ? `p:${index + 1}` : null });
    };
    return { fetchPage, asked };
  }

  it('asks for the failed page again from the same token while resume says so, never from the first page', async () => {
    const source = flaky(3);
    const seen: { attempt: number; pagesRead: number }[] = [];
    const resume = ({ attempt, pagesRead }: { attempt: number; pagesRead: number }) => {
      seen.push({ attempt, pagesRead });
      return Promise.resolve(true);
    };
    const pages = await pagesOf(new Paginator(source.fetchPage, 'GET /x', LIST_PAGES_MAX, resume));
    expect(pages.flatMap((p) => p.items)).toEqual([0, 1, 2]);
    expect(source.asked).toEqual([undefined, 'p:1', 'p:1', 'p:1', 'p:1', 'p:2']);
    expect(seen).toEqual([{ attempt: 1, pagesRead: 1 }, { attempt: 2, pagesRead: 1 }, { attempt: 3, pagesRead: 1 }]);
  });

  it('lets the error end the list when resume says no, or without resume', async () => {
    const refused = flaky(1);
    await expect(pagesOf(new Paginator(refused.fetchPage, 'GET /x', LIST_PAGES_MAX, () => Promise.resolve(false)))).rejects.toThrow('503');
    expect(refused.asked).toEqual([undefined, 'p:1']);
    await expect(pagesOf(new Paginator(flaky(1).fetchPage, 'GET /x'))).rejects.toThrow('503');
  });
});
