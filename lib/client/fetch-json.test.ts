import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTranslator } from 'next-intl';
import { errorText, type Translate } from './error-text';
import en from '@/messages/en.json';
import sv from '@/messages/sv.json';
import { fetchJson, type HttpError, isHttpError } from './fetch-json';

const t = createTranslator({ locale: 'en', messages: en }) as unknown as Translate;

type Call = { url: string; init: RequestInit };

function answering(response: () => Response | Promise<Response>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve().then(response);
  });
  return calls;
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (isHttpError(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchJson', () => {
  it('sends a file (an upload) as it is, with its own type and the Idempotency-Key', async () => {
    const calls = answering(() => Response.json({ ok: 1 }));
    const file = new Blob(['deviceId;name'], { type: 'text/csv' });
    await fetchJson('/api/upload', { method: 'POST', idempotencyKey: 'k-1', body: file });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers['content-type']).toBe('text/csv');
    expect(headers['Idempotency-Key']).toBe('k-1');
    expect(calls[0]!.init.body).toBe(file);
  });

  it('reads with accept and no Idempotency-Key', async () => {
    const calls = answering(() => Response.json({ ok: 1 }));
    expect(await fetchJson<{ ok: number }>('/api/x')).toEqual({ ok: 1 });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(calls[0]!.init.method).toBe('GET');
    expect(calls[0]!.init.cache).toBe('no-store');
    expect(headers).toEqual({ accept: 'application/json' });
  });

  it('sends a mutation with its Idempotency-Key and a JSON body', async () => {
    const calls = answering(() => Response.json({ request: { id: 'r' } }, { status: 202 }));
    await fetchJson('/api/reservations', { method: 'POST', idempotencyKey: 'k-1', body: { a: 1 } });
    expect(calls[0]!.init.method).toBe('POST');
    expect(calls[0]!.init.headers).toEqual({ accept: 'application/json', 'Idempotency-Key': 'k-1', 'content-type': 'application/json' });
    expect(calls[0]!.init.body).toBe('{"a":1}');
    await fetchJson('/api/reservations/r?deviceId=d', { method: 'DELETE', idempotencyKey: 'k-2' });
    expect(calls[1]!.init.headers).toEqual({ accept: 'application/json', 'Idempotency-Key': 'k-2' });
    expect(calls[1]!.init.body).toBeUndefined();
  });

  it("shows the portal's own error message and keeps its code", async () => {
    answering(() => Response.json({ error: { code: 'conflict', message: 'The slot is already booked.' } }, { status: 409 }));
    const error = await failure(fetchJson('/api/x'));
    expect([error.status, error.message, error.code]).toEqual([409, 'The slot is already booked.', 'conflict']);
    // The portal's sentence is shown as it came: the portal already answered in the reader's language.
    expect(errorText(error, t)).toBe('The slot is already booked.');
  });

  it('says the status for an answer that is not the portal’s, with no code', async () => {
    answering(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await failure(fetchJson('/api/x', { method: 'POST', idempotencyKey: 'k' }));
    expect([error.status, error.text, error.code]).toEqual([502, { key: 'errors.httpStatus', values: { status: '502' } }, null]);
    expect(errorText(error, t)).toBe('The portal answered 502.');
    expect(errorText(error, createTranslator({ locale: 'sv', messages: sv }) as unknown as Translate)).toBe('Portalen svarade 502.');
  });

  it('turns no answer into status 0 and an unreadable 2xx into an HttpError without a code', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const unreachable = await failure(fetchJson('/api/x'));
    expect([unreachable.status, errorText(unreachable, t), unreachable.code]).toEqual([0, 'The portal could not be reached. Check the connection and try again.', null]);
    answering(() => new Response('not json', { status: 202 }));
    const unreadable = await failure(fetchJson('/api/x', { method: 'POST', idempotencyKey: 'k' }));
    expect([unreadable.status, unreadable.code]).toEqual([202, null]);
  });

  it('rejects with the abort itself when the caller aborted', async () => {
    const controller = new AbortController();
    vi.stubGlobal('fetch', () => {
      controller.abort();
      return Promise.reject(new DOMException('aborted', 'AbortError'));
    });
    await expect(fetchJson('/api/x', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
