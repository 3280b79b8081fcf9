import 'server-only';
import { readBodyCapped, readBytesCapped as readStreamBytesCapped } from '@/shared/read-capped';
import { ApiError } from '@/lib/errors/api-error';
import { msg, type Message } from '@/lib/i18n/message';

export const MAX_JSON_BODY_BYTES = 1_048_576;

/** Reads a JSON body with a size cap and a clear error for each way it can be wrong. */
export async function readJson(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ApiError('unsupported_media_type', msg('errors.bodyNotJsonType'));
  }
  refuseDeclaredOver(request, maxBytes, msg('errors.bodyTooLarge', { maxBytes }));
  const text = await readTextCapped(request, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('bad_request', msg('errors.bodyNotJson'));
  }
}

/** Reads a body as text, refusing it once it exceeds maxBytes (whatever Content-Length claimed). */
export async function readTextCapped(request: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<string> {
  const text = await readBodyCapped(request.body, maxBytes);
  if (text === null) throw new ApiError('payload_too_large', msg('errors.bodyTooLarge', { maxBytes }));
  return text;
}

/** Reads a body as bytes (an uploaded file), refusing it once it exceeds maxBytes with `tooLarge`'s sentence. */
export async function readBytesCapped(request: Request, maxBytes: number, tooLarge = msg('errors.bodyTooLarge', { maxBytes })): Promise<Uint8Array> {
  refuseDeclaredOver(request, maxBytes, tooLarge);
  const bytes = await readStreamBytesCapped(request.body, maxBytes);
  if (bytes === null) throw new ApiError('payload_too_large', tooLarge);
  return new Uint8Array(bytes);
}

/** A body whose Content-Length already says it is over the cap is refused before a byte is read. */
function refuseDeclaredOver(request: Request, maxBytes: number, tooLarge: Message): void {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new ApiError('payload_too_large', tooLarge);
}
