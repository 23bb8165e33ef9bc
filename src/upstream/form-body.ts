import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { UpstreamUpload } from './types.js';

export interface FormBody {
  contentType: string;
  contentLength: number;
  /** The parts in order; the file's bytes are sent as they are held, never copied. */
  stream(): Readable;
}

/**
 * A multipart/form-data body: each member of `fields` a text field (an array one field per item,
 * under the same name; anything else its JSON text unless it is a string or number), then the file.
 * Built around the held bytes, so a failover sends the same recording again without a copy.
 */
export function formBody(fields: Record<string, unknown>, upload: UpstreamUpload): FormBody {
  const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean' ? String(item) : JSON.stringify(item);
      head += `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${text}\r\n`;
    }
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(upload.field)}"; filename="${quoted(upload.filename)}"\r\nContent-Type: ${upload.mediaType}\r\n\r\n`;
  const parts = [Buffer.from(head), upload.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)];
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: parts.reduce((sum, part) => sum + part.byteLength, 0),
    stream: () => Readable.from(parts, { objectMode: false }),
  };
}

/** A name inside a Content-Disposition header: quotes and line breaks escaped as browsers do. */
function quoted(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
