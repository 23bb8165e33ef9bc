import type { IncomingMessage } from 'node:http';

/** OpenAI's limit on an audio upload's file. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** Room in the body for the form's other fields and its part headers. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const MAX_BODY_BYTES = MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES;

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
 * Reads a request body of at most the file's limit and room for the fields. A larger one is read to
 * its end without being kept (so the client sees the answer rather than a reset) and reported as
 * too large.
 */
async function readBounded(req: IncomingMessage): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length']);
  const chunks: Buffer[] = [];
  let size = 0;
  let kept = !(declared > MAX_BODY_BYTES);
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) kept = false;
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
 * form parser over the bounded bytes (a test instrument: 25 MiB at most in memory, once); a file
 * over 25 MiB is too large.
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
  if (form.file && form.file.bytes.length > MAX_UPLOAD_BYTES) return { kind: 'too_large' };
  return { kind: 'form', form };
}
