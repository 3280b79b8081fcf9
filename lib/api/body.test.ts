import { describe, expect, it } from 'vitest';
import { msg } from '@/lib/i18n/message';
import { readBytesCapped, readJson } from './body';

const jsonRequest = (body: string, type = 'application/json') =>
  new Request('http://portal.test/api/x', { method: 'POST', headers: { 'content-type': type }, body });

describe('readJson', () => {
  it('parses JSON', async () => {
    await expect(readJson(jsonRequest('{"a":1}'))).resolves.toEqual({ a: 1 });
  });
  it('refuses a non-JSON content type with 415', async () => {
    await expect(readJson(jsonRequest('{}', 'text/plain'))).rejects.toMatchObject({ code: 'unsupported_media_type' });
  });
  it('refuses malformed JSON with 400', async () => {
    await expect(readJson(jsonRequest('{"a":'))).rejects.toMatchObject({ code: 'bad_request' });
  });
  it('refuses a body over the cap with 413 even without Content-Length', async () => {
    await expect(readJson(jsonRequest(`"${'x'.repeat(2_000)}"`), 1_000)).rejects.toMatchObject({ code: 'payload_too_large' });
  });
});

describe('readBytesCapped', () => {
  /** An upload that declares its length, and fails the test if it is read at all. */
  const declaredUpload = (declared: number) => {
    let pulled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled = true;
        controller.enqueue(new Uint8Array(10));
        controller.close();
      },
      // Pulled only when read (the default strategy pulls once at once).
    }, { highWaterMark: 0 });
    const request = new Request('http://portal.test/api/x', { method: 'POST', headers: { 'content-length': String(declared) }, body, duplex: 'half' } as RequestInit);
    return { request, pulled: () => pulled };
  };

  it('refuses an upload whose Content-Length is over the cap with 413 and its sentence, before reading it', async () => {
    const upload = declaredUpload(5_000_000);
    const tooLarge = msg('systemImport.tooLarge', { max: 1 });
    await expect(readBytesCapped(upload.request, 1_000, tooLarge)).rejects.toMatchObject({ code: 'payload_too_large', text: tooLarge });
    expect(upload.pulled()).toBe(false);
  });
  it('reads an upload within the cap, and refuses one over it without Content-Length', async () => {
    await expect(readBytesCapped(declaredUpload(10).request, 1_000)).resolves.toHaveLength(10);
    await expect(readBytesCapped(new Request('http://portal.test/api/x', { method: 'POST', body: 'x'.repeat(2_000) }), 1_000)).rejects.toMatchObject({ code: 'payload_too_large' });
  });
});
