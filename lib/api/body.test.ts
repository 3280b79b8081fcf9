import { describe, expect, it } from 'vitest';
import { readJson } from './body';

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
