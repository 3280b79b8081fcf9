// shared/: server-side, dependency-free (type imports aside) helpers that both the portal and the sandbox import (the
// sandbox imports nothing else of the portal). Nothing here imports from lib/, app/, components/ or
// sandbox/.

/**
 * Reads a body's bytes, giving up once they exceed maxBytes whatever Content-Length claimed.
 * Returns null when the body was too large (the stream is cancelled).
 */
export async function readBytesCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Buffer | null> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** readBytesCapped as text (UTF-8); null when the body was too large. */
export async function readBodyCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string | null> {
  const bytes = await readBytesCapped(body, maxBytes);
  return bytes === null ? null : bytes.toString('utf8');
}
