import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { MultipartFile } from '@fastify/multipart';
import { SPEECH_LIMITS } from '../../core/speech.js';
import { SpeechRequestSchema } from '../../dialects/speech/schema.js';
import { sampleTooLarge } from '../../dialects/speech/decode.js';
import { multipartToBody } from '../../dialects/speech/multipart-body.js';
import { readOneFileForms } from '../multipart-forms.js';
import { DIALECTS } from '../../inference/dialects.js';
import { inferenceRoute } from './inference-route.js';
import type { Services } from '../services.js';
import { refuseQuery } from '../../catalogue/listing/model-query.js';
import { speechModelRecords } from '../../catalogue/listing/speech-models.js';
import { SpeechModelSchema } from '../../catalogue/model-summary-schema.js';
import { SPEECH_REPLY_TYPES, SpeechFormSchema } from '../../dialects/speech/form-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { dataReply, mediaReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

const SERVICE_VOICE = {
  'X-Service-Voice': { description: 'The voice that spoke, when the service chose it for a `voice` no endpoint declares', type: 'string' as const },
};

/** GET /speech/models (public: a catalogue read): the speech models and what they declare. */
export function registerSpeechModelsRoute(app: FastifyInstance, services: Pick<Services, 'catalogue'>): void {
  app.get('/speech/models', {
    schema: {
      operationId: 'listSpeechModels',
      summary: 'Speech models with their voices, formats and speed range',
      tags: [TAGS.speech],
      answers: { success: { 200: dataReply(Type.Array(SpeechModelSchema), 'The served speech models') }, errors: [400] },
    },
  }, async (request) => {
    refuseQuery(request.query as Record<string, unknown>);
    return { data: speechModelRecords(services.catalogue.current()) };
  });
}

/**
 * POST /audio/speech: text to audio, from a JSON body or a multipart form whose `file` is a voice
 * sample (read into memory for this request only, at most 5 MiB).
 */
export async function registerSpeechRoute(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    await readOneFileForms(scope, { fileBytes: SPEECH_LIMITS.sampleBytes, oneFile: 'one voice sample per request', onFile: readSample });
    inferenceRoute(scope, services, {
      url: '/audio/speech',
      summary: 'Text to audio',
      operationId: 'createSpeech',
      tag: TAGS.speech,
      answers: {
        success: { 200: mediaReply(SPEECH_REPLY_TYPES, 'The encoded audio as `response_format` asks, relayed as it arrives, without Content-Length', SERVICE_VOICE) },
        errors: INFERENCE_REFUSALS,
        requestBody: {
          'application/json': { schema: SpeechRequestSchema },
          'multipart/form-data': { schema: SpeechFormSchema },
        },
      },
      dialect: DIALECTS.speech,
      preValidation: async (request) => {
        if (request.isMultipart()) request.body = multipartToBody((request.body ?? {}) as Record<string, unknown>);
      },
    });
  });
}

/** Buffers the sample, refusing it (413) once it passes 5 MiB. */
async function readSample(part: MultipartFile): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > SPEECH_LIMITS.sampleBytes) {
      part.file.resume();
      throw sampleTooLarge('file');
    }
    chunks.push(chunk);
  }
  (part as MultipartFile & { value: Buffer }).value = Buffer.concat(chunks);
}
