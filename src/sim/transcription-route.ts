import type { ServerResponse } from 'node:http';
import { parseBuffer } from 'music-metadata';
import { passBehaviourGate } from './behaviour-gate.js';
import { sendError } from './json-reply.js';
import { countTextPromptTokens } from './prompt-tokens.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../core/transcription.js';
import { isTranscriptFormat, renderTranscript } from './transcript-formats.js';
import { planTranscript, type TranscriptPlan } from './transcript-plan.js';
import { MAX_UPLOAD_BYTES, type UploadForm, type UploadRead } from './upload-form.js';

/** Audio tokens a second of input, as the simulator bills a token-billed transcription model. */
const AUDIO_TOKENS_PER_SECOND = 10;
/** What a token-billed model (gpt-4o-transcribe and the like) answers in; Whisper answers in every format. */
const TOKEN_MODEL_FORMATS: readonly TranscriptFormat[] = ['json', 'text'];
const GRANULARITIES = ['word', 'segment'];
const LANGUAGE = /^[a-z]{2,3}$/;
const UNREADABLE = 'Invalid file format. The simulator reads the container and duration of wav, mp3, flac, ogg, m4a and webm audio.';

interface TranscriptionRequest {
  model: string;
  format: TranscriptFormat;
  prompt: string;
  language: string | undefined;
  granularities: string[];
  temperature: number;
  /** Whisper bills by duration; other models by tokens. */
  byDuration: boolean;
}

type Checked = { ok: true; request: TranscriptionRequest } | { ok: false; param: string; message: string };

function field(form: UploadForm, name: string): string | undefined {
  const value = form.fields[name];
  return Array.isArray(value) ? value.at(-1) : value;
}

/** The form's fields read and checked; a value out of range is refused naming it. */
function checkFields(form: UploadForm): Checked {
  const model = field(form, 'model') ?? '';
  if (model === '') return { ok: false, param: 'model', message: 'you must provide a model parameter' };
  const byDuration = (model.split(';', 1)[0] ?? '').startsWith('whisper');
  const format = field(form, 'response_format') ?? 'json';
  if (!isTranscriptFormat(format)) return { ok: false, param: 'response_format', message: `response_format must be one of ${TRANSCRIPT_FORMATS.join(', ')}.` };
  if (!byDuration && !TOKEN_MODEL_FORMATS.includes(format)) {
    return { ok: false, param: 'response_format', message: `response_format '${format}' is not compatible with model '${model}'; use json or text.` };
  }
  const granularities = [form.fields.timestamp_granularities ?? []].flat();
  if (granularities.some((item) => !GRANULARITIES.includes(item))) return { ok: false, param: 'timestamp_granularities', message: 'timestamp_granularities takes word and segment.' };
  if (granularities.length > 0 && format !== 'verbose_json') {
    return { ok: false, param: 'timestamp_granularities', message: 'timestamp_granularities needs response_format verbose_json.' };
  }
  const temperature = Number(field(form, 'temperature') ?? 0);
  if (!(temperature >= 0 && temperature <= 1)) return { ok: false, param: 'temperature', message: 'temperature must be a number from 0 to 1.' };
  const language = field(form, 'language');
  if (language !== undefined && !LANGUAGE.test(language)) return { ok: false, param: 'language', message: 'language must be an ISO-639-1 code such as en.' };
  if (field(form, 'stream') === 'true') return { ok: false, param: 'stream', message: 'Streamed transcription is not supported by this model.' };
  return { ok: true, request: { model, format, prompt: field(form, 'prompt') ?? '', language, granularities, temperature, byDuration } };
}

/** Seconds of audio in the upload, as its container says; undefined when it is not audio the simulator reads. */
async function audioSeconds(bytes: Buffer): Promise<number | undefined> {
  if (bytes.length === 0) return undefined;
  try {
    const metadata = await parseBuffer(bytes, { size: bytes.length }, { duration: true });
    const duration = metadata.format.duration;
    return metadata.format.container !== undefined && duration !== undefined && Number.isFinite(duration) && duration > 0 ? duration : undefined;
  } catch {
    return undefined;
  }
}

/** whisper: `{type: duration, seconds}` in whole seconds, rounded up; other models: tokens, audio and prompt in, text out. */
function usageOf(request: TranscriptionRequest, plan: TranscriptPlan): Record<string, unknown> {
  if (request.byDuration) return { type: 'duration', seconds: Math.ceil(plan.duration) };
  const audio = Math.ceil(plan.duration * AUDIO_TOKENS_PER_SECOND);
  const text = countTextPromptTokens(request.prompt);
  const output = countTextPromptTokens(plan.text);
  return { type: 'tokens', input_tokens: audio + text, input_token_details: { text_tokens: text, audio_tokens: audio }, output_tokens: output, total_tokens: audio + text + output };
}

/**
 * `POST /v1/audio/transcriptions`, OpenAI's wire (multipart: file, model, language, prompt,
 * response_format, temperature, timestamp_granularities[]): a deterministic transcript of the
 * uploaded audio (transcript-plan.ts) in the asked format. A model whose base name starts with
 * `whisper` answers as whisper-1: every format, usage by duration; any other model as
 * gpt-4o-transcribe: json or text, usage in tokens. An upload whose container and duration cannot be
 * read (empty, corrupt, not audio) is 400 naming `file`; a file over 25 MiB is 413. Behaviours from
 * the model name and `[[sim …]]` in the prompt, as for image generation (behaviour-gate.ts), and
 * `no_usage`.
 */
export async function handleTranscription(res: ServerResponse, read: UploadRead): Promise<void> {
  if (read.kind === 'too_large') return sendError(res, 413, `Maximum content size limit (${MAX_UPLOAD_BYTES}) exceeded.`, { param: 'file' });
  if (read.kind === 'malformed') return sendError(res, 400, read.problem);
  const { form } = read;
  const checked = checkFields(form);
  if (!checked.ok) return sendError(res, 400, checked.message, { param: checked.param });
  const { request } = checked;
  if (!form.file) return sendError(res, 400, "Missing required parameter: 'file'.", { param: 'file' });
  const duration = await audioSeconds(form.file.bytes);
  if (duration === undefined) return sendError(res, 400, UNREADABLE, { param: 'file' });
  const members: Record<string, unknown> = { ...form.fields, file: form.file.name };
  const behaviour = await passBehaviourGate(res, { model: request.model, text: request.prompt, members });
  if (!behaviour) return;
  const plan = planTranscript(form.file.bytes, duration);
  const reply = renderTranscript({
    plan,
    format: request.format,
    usage: behaviour.usage ? usageOf(request, plan) : undefined,
    language: request.language,
    granularities: request.granularities,
    temperature: request.temperature,
  });
  res.writeHead(200, { 'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.body) });
  res.end(reply.body);
}
