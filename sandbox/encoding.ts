/** Small value encodings the routes share. */
export const b64url = (buf: Buffer | Uint8Array) => Buffer.from(buf).toString('base64url');
export const toDate = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));
export const iso = (value: unknown) => toDate(value).toISOString().replace('.000Z', 'Z');
