import { invalidRequest } from '../../core/errors.js';
import { parseFormProvider } from '../shared/provider-preferences.js';
import { UploadedAudio } from './uploaded-audio.js';

const TEXT_FIELDS = ['model', 'language', 'prompt', 'response_format', 'session_id', 'user'] as const;
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A multipart form (fields as strings, `file` as an `UploadedAudio`) read into the JSON body's
 * shape: `temperature` parsed, `timestamp_granularities[]` (the clients' spelling) or
 * `timestamp_granularities` gathered into a list, `provider` parsed from its JSON encoding, `stream`
 * read as a boolean. The body's schema then judges it.
 */
export function transcriptionFormToBody(form: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of TEXT_FIELDS) {
    if (form[name] !== undefined) body[name] = form[name];
  }
  const temperature = form.temperature;
  if (temperature !== undefined) body.temperature = typeof temperature === 'string' && NUMBER.test(temperature.trim()) ? Number(temperature) : temperature;
  const granularities = form['timestamp_granularities[]'] ?? form.timestamp_granularities;
  // one field per item (OpenAI's client), or one field listing them all (`word,segment`, @openrouter/sdk's)
  if (granularities !== undefined) body.timestamp_granularities = [granularities].flat().flatMap((item) => (typeof item === 'string' ? item.split(',').map((part) => part.trim()) : [item]));
  if (form.stream !== undefined) body.stream = form.stream === 'true' ? true : form.stream === 'false' ? false : form.stream;
  if (form.provider !== undefined) body.provider = parseFormProvider(form.provider);
  if (form.file !== undefined) {
    if (!(form.file instanceof UploadedAudio)) throw invalidRequest('file', 'must be an uploaded file');
    body.file = form.file;
  }
  return body;
}
