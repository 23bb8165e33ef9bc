import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import { clientAbortedError } from '../../inference/call.js';
import { DEFAULT_UPLOAD_PURPOSE, isUploadPurpose, UPLOAD_PURPOSES, type UploadPurpose } from '../../files/file-purpose.js';
import { FILE_LIFETIME_MS, type FileService } from '../../files/file-service.js';
import type { SealedBlob } from '../../files/sealed-blobs.js';
import { multipartFailure } from '../multipart-forms.js';

/** The form fields an upload may carry beside `file` (OpenAI's). */
const FIELDS = ['purpose', 'expires_after[anchor]', 'expires_after[seconds]'] as const;
type FieldName = (typeof FIELDS)[number];

/** The longest filename kept, in characters. */
const MAX_FILENAME = 500;

/** The shortest life `expires_after[seconds]` may ask for (OpenAI's); the longest is the 48 hours every file has. */
const MIN_LIFETIME_SECONDS = 3600;
const MAX_LIFETIME_SECONDS = FILE_LIFETIME_MS / 1000;

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"\\\\]*"))*$`);

/** An upload read from its form: the staged bytes, and what the file is called, served as and for. */
export interface UploadForm {
  blob: SealedBlob;
  filename: string;
  contentType: string;
  purpose: UploadPurpose;
  lifetimeMs?: number;
}

/**
 * Reads `POST /files`' multipart form in the order it arrives: `file` is staged (sealed into
 * storage as its bytes arrive, never held whole) and the fields are checked once all have arrived.
 * A refusal after the bytes were staged discards them: nothing is left of a refused upload.
 */
export async function readUploadForm(request: FastifyRequest, files: FileService): Promise<UploadForm> {
  if (!request.isMultipart()) throw invalidRequest('body', 'must be a multipart form (Content-Type: multipart/form-data) with `file` and `purpose`');
  const fields = new Map<FieldName, string>();
  let upload: Omit<UploadForm, 'purpose' | 'lifetimeMs'> | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        readField(fields, part);
        continue;
      }
      const described = describeFile(part);
      // a purpose sent before the file is judged before any byte of it is stored
      if (fields.has('purpose')) readPurpose(fields, () => part.file.resume());
      upload = { ...described, blob: await files.stage(part.file) };
    }
    if (!upload) throw invalidRequest('file', 'required: the file to store, as a form part with a filename');
    return { ...upload, ...readDetails(fields) };
  } catch (error) {
    if (upload) await files.discard(upload.blob).catch(() => undefined);
    throw error;
  }
}

function readField(fields: Map<FieldName, string>, part: MultipartValue): void {
  if (part.fieldname === 'file') throw invalidRequest('file', 'must be an uploaded file (a form part with a filename)');
  const name = FIELDS.find((field) => field === part.fieldname);
  if (!name) throw invalidRequest(part.fieldname, 'unknown form field');
  if (fields.has(name)) throw invalidRequest(name, 'must be given once');
  if (part.valueTruncated || typeof part.value !== 'string') throw invalidRequest(name, 'must be a short text field');
  fields.set(name, part.value);
}

/** The file part's name and media type, checked before any of its bytes are read. */
function describeFile(part: MultipartFile): { filename: string; contentType: string } {
  const refuse = (field: string, problem: string) => {
    part.file.resume();
    return invalidRequest(field, problem);
  };
  if (part.fieldname !== 'file') throw refuse(part.fieldname, 'unknown form field');
  const filename = part.filename ?? '';
  if (filename === '') throw refuse('file', 'needs a filename (the form part\'s `filename`)');
  if (filename.length > MAX_FILENAME) throw refuse('file', `its filename is longer than ${MAX_FILENAME} characters`);
  const contentType = part.mimetype.trim();
  if (contentType.length > 255 || !MEDIA_TYPE.test(contentType)) throw refuse('file', 'its Content-Type is not a media type');
  return { filename, contentType };
}

/** The stated purpose, or the default; `beforeRefusal` runs first when it is refused. */
function readPurpose(fields: Map<FieldName, string>, beforeRefusal?: () => void): UploadPurpose {
  const purpose = fields.get('purpose') ?? DEFAULT_UPLOAD_PURPOSE;
  if (isUploadPurpose(purpose)) return purpose;
  beforeRefusal?.();
  throw invalidRequest('purpose', `must be one of ${UPLOAD_PURPOSES.join(', ')}`);
}

function readDetails(fields: Map<FieldName, string>): { purpose: UploadPurpose; lifetimeMs?: number } {
  const purpose = readPurpose(fields);
  const anchor = fields.get('expires_after[anchor]');
  const seconds = fields.get('expires_after[seconds]');
  if (anchor === undefined && seconds === undefined) return { purpose };
  if (anchor !== 'created_at') throw invalidRequest('expires_after[anchor]', 'must be created_at');
  const lifetime = seconds !== undefined && /^\d{1,10}$/.test(seconds) ? Number(seconds) : Number.NaN;
  if (!(lifetime >= MIN_LIFETIME_SECONDS && lifetime <= MAX_LIFETIME_SECONDS)) {
    throw invalidRequest('expires_after[seconds]', `must be an integer from ${MIN_LIFETIME_SECONDS} to ${MAX_LIFETIME_SECONDS} (stored files live 48 hours at most)`);
  }
  return { purpose, lifetimeMs: lifetime * 1000 };
}

/** What the form reader's failures mean to the caller of an upload: those of every form, and a few of its own. */
export function uploadFormFailure(thrown: unknown): unknown {
  if (!(thrown instanceof Error) || thrown instanceof GatewayError) return thrown;
  switch ((thrown as Error & { code?: string }).code) {
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return invalidRequest('body', 'a form field declared as JSON does not parse');
    case 'FST_MP_PREMATURE_CLOSE':
      return clientAbortedError();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return invalidRequest('body', 'must be a multipart form (Content-Type: multipart/form-data) with `file` and `purpose`');
    default:
      return multipartFailure(thrown, 'one file per upload');
  }
}
