import type { TSchema } from '@sinclair/typebox';
import type { DecodedOperation } from '../core/decoded-operation.js';
import type { CoreRequest } from '../core/request.js';
import { admitter, type Admission } from '../dialects/shared/admission.js';
import type { DialectBinding } from '../dialects/shared/dialect-binding.js';
import type { HeaderBag } from '../dialects/shared/request-headers.js';
import { chatDialect } from '../dialects/chat/binding.js';
import { decodeChatRequest } from '../dialects/chat/decode.js';
import { ChatRequestSchema } from '../dialects/chat/schema.js';
import { completionsDialect } from '../dialects/completions/binding.js';
import { decodeCompletionsRequest } from '../dialects/completions/decode.js';
import { CompletionsRequestSchema } from '../dialects/completions/schema.js';
import { decodeEmbeddingsRequest } from '../dialects/embeddings/decode.js';
import { EmbeddingsRequestSchema } from '../dialects/embeddings/schema.js';
import { messagesDialect } from '../dialects/messages/binding.js';
import { decodeMessagesRequest } from '../dialects/messages/decode.js';
import { MessagesRequestSchema } from '../dialects/messages/schema.js';
import { decodeRerankRequest } from '../dialects/rerank/decode.js';
import { RerankRequestSchema } from '../dialects/rerank/schema.js';
import { responsesDialect } from '../dialects/responses/binding.js';
import { decodeResponsesRequest } from '../dialects/responses/decode.js';
import { ResponsesRequestSchema } from '../dialects/responses/schema.js';
import { decodeSpeechRequest } from '../dialects/speech/decode.js';
import { SpeechRequestSchema } from '../dialects/speech/schema.js';
import { decodeSystemOneRequest } from '../dialects/systemone/decode.js';
import { SystemOneRequestSchema, type SystemOneRequestBody } from '../dialects/systemone/schema.js';
import type { OperationBinding } from './operation-binding.js';
import { decisionOperation, decisionsOperation } from './operations/decisions.js';
import { embeddingsOperation } from './operations/embeddings.js';
import { rerankOperation } from './operations/rerank.js';
import { imageGenerationsOperation, imagesOperation } from './operations/images.js';
import { decodeImageGenerationsRequest, decodeImagesRequest } from '../dialects/images/decode.js';
import { ImageGenerationsRequestSchema, ImagesRequestSchema } from '../dialects/images/schema.js';
import { transcriptionOperation } from './operations/transcriptions.js';
import { decodeTranscriptionRequest } from '../dialects/transcriptions/decode.js';
import { TranscriptionRequestSchema } from '../dialects/transcriptions/schema.js';

interface DialectBase<Admitted> {
  name: string;
  /** The body's schema: what `admit` checks, and what the OpenAPI document shows. */
  schema: TSchema;
  /** The body as the pipeline runs it, or the refusal the live route answers with (the body's null members are dropped in place). */
  admit(body: unknown, headers: HeaderBag): Admission<Admitted>;
}

/** A conversation (chat, completions, messages, responses): answered whole or streamed, in its encoders' shapes. */
export interface ConversationDialect extends DialectBase<CoreRequest> {
  kind: 'conversation';
  encoders: DialectBinding;
}

/** Speech: the audio relayed as it arrives. */
export interface SpeechDialect extends DialectBase<CoreRequest> {
  kind: 'speech';
}

/** A call that is not a conversation (embeddings, rerank, typed decisions): one JSON reply, by its operation. */
export interface OperationDialect<Ask, Result, Piece = unknown> extends DialectBase<DecodedOperation<Ask>> {
  kind: 'operation';
  operation: OperationBinding<Ask, Result, Piece>;
}

export type Dialect = ConversationDialect | SpeechDialect | OperationDialect<unknown, unknown>;

function conversation<Body>(name: string, schema: TSchema, decode: (body: Body, headers: HeaderBag) => CoreRequest, encoders: DialectBinding): ConversationDialect {
  return { kind: 'conversation', name, schema, admit: admitter(schema, decode), encoders };
}

function operation<Body, Ask, Result, Piece = never>(
  name: string,
  schema: TSchema,
  decode: (body: Body, headers: HeaderBag) => DecodedOperation<Ask>,
  binding: OperationBinding<Ask, Result, Piece>,
): OperationDialect<Ask, Result, Piece> {
  return { kind: 'operation', name, schema, admit: admitter(schema, decode), operation: binding };
}

/** Every body the pipeline admits, by the name of what it asks for: the HTTP routes, batches and the prober read them here. */
export const DIALECTS = {
  chat: conversation('chat', ChatRequestSchema, decodeChatRequest, chatDialect),
  completions: conversation('completions', CompletionsRequestSchema, decodeCompletionsRequest, completionsDialect),
  messages: conversation('messages', MessagesRequestSchema, decodeMessagesRequest, messagesDialect),
  responses: conversation('responses', ResponsesRequestSchema, decodeResponsesRequest, responsesDialect),
  speech: { kind: 'speech', name: 'speech', schema: SpeechRequestSchema, admit: admitter(SpeechRequestSchema, decodeSpeechRequest) } satisfies SpeechDialect,
  embeddings: operation('embeddings', EmbeddingsRequestSchema, decodeEmbeddingsRequest, embeddingsOperation),
  rerank: operation('rerank', RerankRequestSchema, decodeRerankRequest, rerankOperation),
  images: operation('images', ImagesRequestSchema, decodeImagesRequest, imagesOperation),
  imageGenerations: operation('image generations', ImageGenerationsRequestSchema, decodeImageGenerationsRequest, imageGenerationsOperation),
  transcriptions: operation('transcriptions', TranscriptionRequestSchema, decodeTranscriptionRequest, transcriptionOperation),
  decisions: operation('decisions', SystemOneRequestSchema, (body: SystemOneRequestBody, headers: HeaderBag) => decisionOperation(decodeSystemOneRequest(body, headers)), decisionsOperation),
} as const;

export type DialectName = keyof typeof DIALECTS;
