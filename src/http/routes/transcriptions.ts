import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { TRANSCRIPTION_UPLOAD_BYTES } from '../../core/transcription.js';
import { recordingTooLarge } from '../../dialects/transcriptions/decode.js';
import { transcriptionFormToBody } from '../../dialects/transcriptions/form-body.js';
import { TRANSCRIPTION_REPLY_TYPES, TranscriptionReplySchema } from '../../dialects/transcriptions/reply-schema.js';
import { TranscriptionFormSchema, TranscriptionJsonSchema } from '../../dialects/transcriptions/schema.js';
import { UploadedAudio } from '../../dialects/transcriptions/uploaded-audio.js';
import { DIALECTS } from '../../inference/dialects.js';
import { readOneFileForms } from '../multipart-forms.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { TAGS } from '../openapi/tags.js';
import type { Services } from '../services.js';
import { inferenceRoute } from './inference-route.js';

/** A JSON body carrying the largest recording as base64, with room for the other members. */
const JSON_BODY_LIMIT = Math.ceil(TRANSCRIPTION_UPLOAD_BYTES / 3) * 4 + 1024 * 1024;

/**
 * POST /audio/transcriptions: a recording written out as text, from OpenAI's multipart form (its
 * client's `audio.transcriptions.create`) or a JSON body with `input_audio`. The form's file is read
 * into one buffer as it arrives (at most 25 MiB, else 413) and held for this request only.
 */
export async function registerTranscriptionRoute(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    await readOneFileForms(scope, { fileBytes: TRANSCRIPTION_UPLOAD_BYTES, oneFile: 'one recording per request', onFile: readRecording });
    inferenceRoute(scope, services, {
      url: '/audio/transcriptions',
      summary: 'Audio to text',
      operationId: 'createTranscription',
      tag: TAGS.transcription,
      bodyLimit: JSON_BODY_LIMIT,
      answers: {
        success: {
          200: {
            description: 'The transcript: JSON for `json` and `verbose_json` (with the counts and the exact cost), plain text for `text`, `srt` and `vtt`',
            headers: { 'X-Provider-Name': { description: 'Display name of the serving provider', type: 'string' } },
            content: {
              [TRANSCRIPTION_REPLY_TYPES[0]]: { schema: TranscriptionReplySchema },
              [TRANSCRIPTION_REPLY_TYPES[1]]: { schema: { type: 'string', description: 'The transcript, or its SubRip or WebVTT captions' } },
            },
          },
        },
        errors: INFERENCE_REFUSALS,
        requestBody: {
          'multipart/form-data': { schema: TranscriptionFormSchema },
          'application/json': { schema: TranscriptionJsonSchema },
        },
      },
      dialect: DIALECTS.transcriptions,
      preValidation: async (request) => {
        if (request.isMultipart()) request.body = transcriptionFormToBody((request.body ?? {}) as Record<string, unknown>);
      },
    });
  });
}

/**
 * Reads the recording into one buffer, sized from the request's Content-Length when it gives one so
 * the bytes are copied once; refused (413) once they pass the limit.
 */
async function readRecording(this: FastifyRequest, part: MultipartFile): Promise<void> {
  const declared = Number(this.headers['content-length']);
  let buffer: Buffer = Buffer.allocUnsafe(Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, TRANSCRIPTION_UPLOAD_BYTES) : 1024 * 1024);
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    if (size + chunk.length > TRANSCRIPTION_UPLOAD_BYTES) {
      part.file.resume();
      throw recordingTooLarge('file');
    }
    if (size + chunk.length > buffer.length) buffer = grown(buffer, size, size + chunk.length);
    chunk.copy(buffer, size);
    size += chunk.length;
  }
  (part as MultipartFile & { value: UploadedAudio }).value = new UploadedAudio(buffer.subarray(0, size));
}

/** A larger buffer holding the first `used` bytes: at least `needed`, doubling, never past the limit. */
function grown(buffer: Buffer, used: number, needed: number): Buffer {
  const next = Buffer.allocUnsafe(Math.min(Math.max(needed, buffer.length * 2), TRANSCRIPTION_UPLOAD_BYTES));
  buffer.copy(next, 0, 0, used);
  return next;
}
