/**
 * Export file names: `bookings-brf-linnegatan-12-2026-01-01-2026-12-31.csv`. The plain `filename`
 * is ASCII (letters folded: å → a, ö → o, æ → ae), which every browser and mail client keeps; the
 * RFC 6266 / RFC 8187 `filename*` carries the system's name as written, for those that read it.
 */

const SPECIAL: Record<string, string> = { æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', ß: 'ss', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH' };

/** Lower-case ASCII words joined by hyphens; empty when nothing is left. */
export function asciiSlug(text: string): string {
  return text
    .replace(/[æÆøØßđĐłŁþÞ]/g, (c) => SPECIAL[c] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/** The name as written, safe inside a file name: no path separators, quotes or control characters, spaces as hyphens. */
function unicodeSlug(text: string): string {
  return text
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
    .replace(/[\u0000-\u001f\u007f"\\/:*?<>|]+/g, ' ')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 80);
}

export interface ExportFileNameInput {
  /** The file's word in the reader's language ("bookings", "bokningar"). */
  word: string;
  systemName: string;
  from: string;
  to: string;
  extension: 'csv' | 'xlsx';
}

export function exportFileNames(input: ExportFileNameInput): { ascii: string; unicode: string } {
  const join = (parts: string[]) => `${parts.filter(Boolean).join('-')}.${input.extension}`;
  return {
    ascii: join([asciiSlug(input.word) || 'export', asciiSlug(input.systemName), input.from, input.to]),
    unicode: join([unicodeSlug(input.word) || 'export', unicodeSlug(input.systemName), input.from, input.to]),
  };
}

/** RFC 3986 percent-encoding of UTF-8 as RFC 8187 wants it (attr-char: also ' ( ) * encoded). */
function encodeExtValue(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `attachment; filename="…"; filename*=UTF-8''…` */
export function attachmentDisposition(names: { ascii: string; unicode: string }): string {
  return `attachment; filename="${names.ascii}"; filename*=UTF-8''${encodeExtValue(names.unicode)}`;
}

/** A download's answer: the file's stream with its type, name and language, never cached. */
export function downloadResponse(body: ReadableStream<Uint8Array>, contentType: string, names: { ascii: string; unicode: string }, locale: string): Response {
  return new Response(body, {
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': attachmentDisposition(names),
      'Cache-Control': 'no-store',
      'Content-Language': locale,
    },
  });
}
