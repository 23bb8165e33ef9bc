import type { IncomingMessage } from 'node:http';

/** OpenAI's limit on an audio upload; the simulator applies it to the whole multipart body. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

export interface UploadedFile {
  name: string;
  bytes: Buffer;
}

/** A multipart form as the simulator reads it: text fields (a `name[]` field as a list under `name`) and one file. */
export interface UploadForm {
  fields: Record<string, string | string[]>;
  file: UploadedFile | undefined;
}

export type UploadRead = { kind: 'form'; form: UploadForm } | { kind: 'too_large' } | { kind: 'malformed'; problem: string };

/**
 * Reads a request body of at most MAX_UPLOAD_BYTES. A larger one is read to its end without being
 * kept (so the client sees the answer rather than a reset) and reported as too large.
 */
async function readBounded(req: IncomingMessage): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length']);
  const chunks: Buffer[] = [];
  let size = 0;
  let kept = !(declared > MAX_UPLOAD_BYTES);
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_UPLOAD_BYTES) kept = false;
    if (kept) chunks.push(buffer);
  }
  return kept ? Buffer.concat(chunks) : undefined;
}

function addField(fields: UploadForm['fields'], name: string, value: string): void {
  if (!name.endsWith('[]')) {
    fields[name] = value;
    return;
  }
  const key = name.slice(0, -2);
  const list = fields[key];
  fields[key] = Array.isArray(list) ? [...list, value] : [value];
}

/**
 * A `multipart/form-data` upload read into fields and its `file` part, with the Web platform's own
 * form parser over the bounded bytes (a test instrument: 25 MiB at most in memory, once).
 */
export async function readUploadForm(req: IncomingMessage): Promise<UploadRead> {
  const bytes = await readBounded(req);
  if (!bytes) return { kind: 'too_large' };
  const contentType = req.headers['content-type'] ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) return { kind: 'malformed', problem: 'the body must be multipart/form-data' };
  let data: FormData;
  try {
    data = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentType } }).formData();
  } catch {
    return { kind: 'malformed', problem: 'malformed multipart form' };
  }
  const form: UploadForm = { fields: {}, file: undefined };
  for (const [name, value] of data) {
    if (typeof value === 'string') addField(form.fields, name, value);
    else if (name === 'file') form.file = { name: value.name, bytes: Buffer.from(await value.arrayBuffer()) };
  }
  return { kind: 'form', form };
}
