import { invalidRequest } from '../../core/errors.js';
import { detectAudioContainer } from '../../core/audio-container.js';
import { parseFormProvider } from '../shared/provider-preferences.js';

/** Form fields read as the JSON body's members of the same name. */
export const TEXT_FIELDS = ['model', 'input', 'voice', 'response_format', 'instructions', 'user'] as const;
export const NUMBER_FIELDS = ['speed', 'seed', 'max_new_tokens'] as const;
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A multipart form (fields as strings, `file` as bytes) read into the JSON body's shape: numbers
 * parsed, `provider` parsed from its JSON encoding, the `file` sample with its `transcript` as the
 * one `input_references` entry, its format read from its bytes. The JSON schema then judges it.
 */
export function multipartToBody(form: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of TEXT_FIELDS) {
    if (form[name] !== undefined) body[name] = form[name];
  }
  for (const name of NUMBER_FIELDS) {
    const value = form[name];
    if (value !== undefined) body[name] = typeof value === 'string' && NUMBER.test(value.trim()) ? Number(value) : value;
  }
  if (form.provider !== undefined) body.provider = parseFormProvider(form.provider);
  const sample = form.file;
  if (sample !== undefined) body.input_references = [reference(sample, form.transcript)];
  else if (form.transcript !== undefined) throw invalidRequest('transcript', 'only with a file sample');
  return body;
}

function reference(sample: unknown, transcript: unknown): Record<string, unknown> {
  if (!Buffer.isBuffer(sample)) throw invalidRequest('file', 'must be an uploaded file');
  const format = detectAudioContainer(sample);
  if (!format) throw invalidRequest('file', 'must be a WAV, MP3, FLAC, OGG, M4A or WebM recording');
  const entry: Record<string, unknown> = { type: 'input_audio', input_audio: { data: sample.toString('base64'), format } };
  if (transcript !== undefined) entry.transcript = transcript;
  return entry;
}
