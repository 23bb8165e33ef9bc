import { sizeFor, type GeneratedImage, type ImageReference, type ImagesAsk, type ImagesResult, type ImagesUsage } from '../../core/images.js';
import type { PlannedAttempt } from '../../core/plan.js';
import type { UpstreamRequest } from '../types.js';
import { bearerJsonHeaders } from '../bearer-headers.js';
import { arrayOf, countOf, isPlainObject, objectOf, stringOf } from '../json-guards.js';
import { decodeOpenAiHttpError } from './error.js';
import { notServedFailure, unreadableReply, type OperationAdapter, type OperationReply } from '../operation-adapter.js';

/**
 * Image generation over OpenAI's `/images/generations` (gpt-image and DALL·E style replies, and the
 * servers that copy them). Only what was asked is sent; reference pictures go as the hosted
 * marketplace's `input_references` (image parts). The reply's pictures are read as bytes
 * (`b64_json`) or URLs, with their format from `output_format` (PNG where none is named); a provider
 * may return fewer than asked, never more.
 */
export const openAiImagesAdapter: OperationAdapter<ImagesAsk, ImagesResult> = {
  buildRequest: buildImagesRequest,
  decodeReply: decodeImagesReply,
  decodeError: (status, bodyText, headers) => notServedFailure('image generation', status, bodyText) ?? decodeOpenAiHttpError(status, bodyText, headers),
};

function buildImagesRequest(ask: ImagesAsk, attempt: PlannedAttempt): UpstreamRequest {
  const { endpoint } = attempt;
  const body: Record<string, unknown> = { model: endpoint.upstreamModel, prompt: ask.prompt, n: ask.n };
  // an aspect ratio and a resolution tier become the endpoint's own declared size
  const size = sizeFor(endpoint, ask);
  if (size !== undefined) body.size = size;
  if (ask.quality !== undefined) body.quality = ask.quality;
  if (ask.background !== undefined) body.background = ask.background;
  if (ask.outputFormat !== undefined) body.output_format = ask.outputFormat;
  if (ask.outputCompression !== undefined) body.output_compression = ask.outputCompression;
  if (ask.seed !== undefined) body.seed = ask.seed;
  if (ask.references.length > 0) body.input_references = ask.references.map(referenceOf);
  if (ask.responseFormat === 'url') body.response_format = 'url';
  if (ask.user !== undefined) body.user = ask.user;
  if (attempt.options) Object.assign(body, attempt.options);
  return { path: '/images/generations', headers: bearerJsonHeaders(endpoint.provider), body };
}

function referenceOf(reference: ImageReference): Record<string, unknown> {
  const url = reference.kind === 'url' ? reference.url : `data:${reference.mediaType};base64,${reference.base64}`;
  return { type: 'image_url', image_url: { url } };
}

const MEDIA_TYPES: Readonly<Record<string, string>> = { png: 'image/png', jpeg: 'image/jpeg', jpg: 'image/jpeg', webp: 'image/webp' };

/** A reply must hold as many pictures as were asked for, each bytes or a URL; anything else fails this endpoint. */
function decodeImagesReply(json: unknown, ask: ImagesAsk): OperationReply<ImagesResult> {
  if (!isPlainObject(json)) return unreadableReply('image generation', json);
  const format = stringOf(json.output_format) ?? 'png';
  const mediaType = MEDIA_TYPES[format];
  const images: GeneratedImage[] = [];
  for (const item of arrayOf(json.data)) {
    const image = imageOf(objectOf(item), mediaType);
    if (!image) return unreadableReply('image generation', json);
    images.push(image);
  }
  if (images.length === 0 || images.length > ask.n) return unreadableReply('image generation', json);
  const result: ImagesResult = { images, usage: usageOf(objectOf(json.usage)) };
  const upstreamId = stringOf(json.id);
  if (upstreamId) result.upstreamId = upstreamId;
  return { ok: true, result };
}

function imageOf(item: Record<string, unknown> | undefined, mediaType: string | undefined): GeneratedImage | undefined {
  const revisedPrompt = stringOf(item?.revised_prompt);
  const revised = revisedPrompt === undefined ? {} : { revisedPrompt };
  const base64 = stringOf(item?.b64_json);
  if (base64 !== undefined && base64 !== '' && mediaType) return { kind: 'data', base64, mediaType, ...revised };
  const url = stringOf(item?.url);
  if (url !== undefined && url !== '') return { kind: 'url', url, ...revised };
  return undefined;
}

function usageOf(usage: Record<string, unknown> | undefined): ImagesUsage {
  const read: ImagesUsage = {};
  const input = countOf(usage?.input_tokens);
  const output = countOf(usage?.output_tokens);
  const details = objectOf(usage?.input_tokens_details);
  const text = countOf(details?.text_tokens);
  const image = countOf(details?.image_tokens);
  if (input !== undefined) read.inputTokens = input;
  if (text !== undefined) read.inputTextTokens = text;
  if (image !== undefined) read.inputImageTokens = image;
  if (output !== undefined) read.outputTokens = output;
  return read;
}
