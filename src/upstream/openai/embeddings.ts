import type { EmbeddingsAsk, EmbeddingsResult, EmbeddingsTokenSplit, EmbeddingsUsage } from '../../core/embeddings.js';
import type { PlannedAttempt } from '../../core/plan.js';
import { readFloat32Base64 } from '../../core/vector-encoding.js';
import type { UpstreamRequest } from '../types.js';
import { bearerJsonHeaders } from '../bearer-headers.js';
import { arrayOf, countOf, isPlainObject, objectOf, stringOf, type JsonObject } from '../json-guards.js';
import { decodeOpenAiHttpError } from './error.js';
import { notServedFailure, unreadableReply, type OperationAdapter, type OperationReply } from '../operation-adapter.js';

const SPLIT_KEYS = ['text_tokens', 'image_tokens', 'audio_tokens', 'video_tokens', 'file_tokens'] as const;

/** Embeddings over any OpenAI-compatible `/embeddings` (hosted APIs, vLLM, TEI, Ollama). */
export const openAiEmbeddingsAdapter: OperationAdapter<EmbeddingsAsk, EmbeddingsResult> = {
  buildRequest: buildEmbeddingsRequest,
  decodeReply: decodeEmbeddingsReply,
  decodeError: (status, bodyText, headers) => notServedFailure('embeddings', status, bodyText) ?? decodeOpenAiHttpError(status, bodyText, headers),
};

/** Floats are always asked for (the default everywhere); the caller's encoding is applied on reply. */
function buildEmbeddingsRequest(ask: EmbeddingsAsk, attempt: PlannedAttempt): UpstreamRequest {
  const { endpoint } = attempt;
  const body: Record<string, unknown> = { model: endpoint.upstreamModel, input: ask.input };
  if (ask.dimensions !== undefined) body.dimensions = ask.dimensions;
  if (ask.inputType !== undefined && endpoint.supportedParameters.has('input_type')) body.input_type = ask.inputType;
  if (ask.user !== undefined) body.user = ask.user;
  if (attempt.options) Object.assign(body, attempt.options);
  return { path: '/embeddings', headers: bearerJsonHeaders(endpoint.provider), body };
}

/**
 * A reply must hold one vector per input, each a float array (or base64 float32), all of the width
 * asked for when one was; anything else fails this endpoint so routing moves on.
 */
function decodeEmbeddingsReply(json: unknown, ask: EmbeddingsAsk): OperationReply<EmbeddingsResult> {
  if (!isPlainObject(json) || !Array.isArray(json.data)) return unreadableReply('embeddings', json);
  const vectors: (number[] | undefined)[] = new Array<number[] | undefined>(ask.count).fill(undefined);
  for (const [position, item] of json.data.entries()) {
    const entry = objectOf(item);
    const index = countOf(entry?.index) ?? position;
    const vector = readVector(entry?.embedding);
    if (!vector || index >= ask.count || vectors[index]) return unreadableReply('embeddings', json);
    if (ask.dimensions !== undefined && vector.length !== ask.dimensions) return unreadableReply('embeddings', json);
    vectors[index] = vector;
  }
  const complete = vectors.filter((vector): vector is number[] => vector !== undefined);
  if (complete.length !== ask.count) return unreadableReply('embeddings', json);
  const result: EmbeddingsResult = { vectors: complete, usage: readUsage(objectOf(json.usage)) };
  const upstreamId = stringOf(json.id);
  if (upstreamId) result.upstreamId = upstreamId;
  return { ok: true, result };
}

function readVector(value: unknown): number[] | undefined {
  if (typeof value === 'string') return readFloat32Base64(value);
  const items = arrayOf(value);
  if (items.length === 0 || !items.every((item) => typeof item === 'number' && Number.isFinite(item))) return undefined;
  return items as number[];
}

function readUsage(usage: JsonObject | undefined): EmbeddingsUsage {
  const read: EmbeddingsUsage = {};
  const promptTokens = countOf(usage?.prompt_tokens) ?? countOf(usage?.total_tokens);
  if (promptTokens !== undefined) read.promptTokens = promptTokens;
  const details = objectOf(usage?.prompt_tokens_details);
  const split: EmbeddingsTokenSplit = {};
  for (const key of SPLIT_KEYS) {
    const count = countOf(details?.[key]);
    if (count !== undefined) split[key] = count;
  }
  if (Object.keys(split).length > 0) read.split = split;
  return read;
}
