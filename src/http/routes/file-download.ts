import type { StoredFile } from '../../files/file-rows.js';

const OCTET_STREAM = 'application/octet-stream';

/**
 * The headers of a stored file's bytes: their length, the type they were stored with, and what
 * keeps a browser from running them as a page of this origin (an attachment, never sniffed,
 * sandboxed, not cached).
 */
export function downloadHeaders(file: StoredFile, accept: string | undefined): Record<string, string | number> {
  return {
    'content-type': servedContentType(file.contentType, accept),
    'content-length': file.bytes,
    'content-disposition': `attachment; filename="${asciiFilename(file.filename)}"; filename*=UTF-8''${extendedFilename(file.filename)}`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': 'sandbox',
    'cache-control': 'private, no-store',
  };
}

/**
 * The stored type, unless the request's Accept rules it out while it takes
 * `application/octet-stream` (as the marketplace's client asks): any bytes are that too. Nothing
 * is refused for its Accept: a client asking for something else still gets the stored type.
 */
export function servedContentType(stored: string, accept: string | undefined): string {
  if (accept === undefined || accept.trim() === '') return stored;
  const ranges = accept.split(',').map(mediaRange).filter((range) => range.weight > 0).map((range) => range.type);
  if (accepts(ranges, essence(stored))) return stored;
  return accepts(ranges, OCTET_STREAM) ? OCTET_STREAM : stored;
}

function mediaRange(text: string): { type: string; weight: number } {
  const [type = '', ...parameters] = text.split(';').map((part) => part.trim().toLowerCase());
  const q = parameters.find((parameter) => parameter.startsWith('q='));
  return { type, weight: q === undefined ? 1 : Number(q.slice(2)) || 0 };
}

function accepts(ranges: readonly string[], type: string): boolean {
  const [major = ''] = type.split('/');
  return ranges.some((range) => range === '*/*' || range === type || range === `${major}/*`);
}

function essence(type: string): string {
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

/** The filename as an RFC 8187 value: UTF-8, percent-encoded beyond its attr-chars. */
function extendedFilename(filename: string): string {
  return encodeURIComponent(filename).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The filename as a quoted-string: printable ASCII, quotes and backslashes replaced. */
function asciiFilename(filename: string): string {
  return filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
}
