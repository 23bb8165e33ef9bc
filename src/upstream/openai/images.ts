import { sizeFor, type GeneratedImage, type ImageReference, type ImagesAsk, type ImagesResult, type ImagesUsage, type PartialImage } from '../../core/images.js';
import type { PlannedAttempt } from '../../core/plan.js';
import type { UpstreamRequest } from '../types.js';
import { bearerJsonHeaders } from '../bearer-headers.js';
import { arrayOf, countOf, isPlainObject, objectOf, parseJson, stringOf } from '../json-guards.js';
import { decodeOpenAiHttpError } from './error.js';
import {
  notServedFailure,
  unreadableReply,
  type OperationAdapter,
  type OperationReply,
  type OperationStreamDecoder,
  type OperationStreamEvent,
} from '../operation-adapter.js';

/**
 * Image generation over OpenAI's `/images/generations` (gpt-image and DALL·E style replies, and the
 * servers that copy them). Only what was asked is sent; reference pictures go as the hosted
 * marketplace's `input_references` (image parts). The reply's pictures are read as bytes
 * (`b64_json`) or URLs, with their format from `output_format` (PNG where none is named); a provider
 * may return fewer than asked, never more.
 */
export const openAiImagesAdapter: OperationAdapter<ImagesAsk, ImagesResult, PartialImage> = {
  buildRequest: buildImagesRequest,
  decodeReply: decodeImagesReply,
  decodeError: (status, bodyText, headers) => notServedFailure('image generation', status, bodyText) ?? decodeOpenAiHttpError(status, bodyText, headers),
  streaming: {
    // only an endpoint declaring `partial_images` is asked to stream; any other answers whole
    streams: (ask, attempt) => ask.stream === true && attempt.endpoint.supportedParameters.has('partial_images'),
    buildStreamRequest: (ask, attempt) => {
      const request = buildImagesRequest(ask, attempt);
      request.body.stream = true;
      if (ask.partialImages !== undefined) request.body.partial_images = ask.partialImages;
      return request;
    },
    createStreamDecoder: (ask) => new ImagesStreamDecoder(ask),
  },
};

/**
 * OpenAI's image event stream: `image_generation.partial_image` events (pieces, as they come), then
 * one `image_generation.completed` per picture with the bytes and the request's usage, or an
 * `error` event. The result is the completed pictures with the last usage reported.
 */
class ImagesStreamDecoder implements OperationStreamDecoder<ImagesResult, PartialImage> {
  readonly #images: GeneratedImage[] = [];
  #usage: ImagesUsage = {};

  constructor(private readonly ask: ImagesAsk) {}

  frame(data: string): OperationStreamEvent<ImagesResult, PartialImage>[] {
    const json = objectOf(parseJson(data));
    const mediaType = MEDIA_TYPES[stringOf(json?.output_format) ?? 'png'];
    const base64 = stringOf(json?.b64_json);
    switch (json?.type) {
      case 'image_generation.partial_image': {
        const index = countOf(json.partial_image_index);
        if (!base64 || !mediaType || index === undefined) return [unreadable(data)];
        return [{ type: 'piece', piece: { base64, mediaType, index } }];
      }
      case 'image_generation.completed': {
        if (!base64 || !mediaType || this.#images.length === this.ask.n) return [unreadable(data)];
        this.#images.push({ kind: 'data', base64, mediaType });
        const usage = objectOf(json.usage);
        if (usage) this.#usage = usageOf(usage);
        return [];
      }
      case 'error': {
        const error = objectOf(json.error);
        return [{ type: 'error', failure: { kind: 'incomplete', retryable: true, providerMessage: stringOf(error?.message) ?? 'The provider\'s stream failed', raw: data } }];
      }
      default:
        return [];
    }
  }

  end(): OperationStreamEvent<ImagesResult, PartialImage>[] {
    if (this.#images.length === 0) return [{ type: 'error', failure: { kind: 'incomplete', retryable: true, providerMessage: 'The provider\'s stream ended before a picture was completed' } }];
    return [{ type: 'result', result: { images: this.#images, usage: this.#usage } }];
  }
}

function unreadable(data: string): OperationStreamEvent<ImagesResult, PartialImage> {
  return { type: 'error', failure: { kind: 'protocol', retryable: true, providerMessage: 'The provider sent an unreadable image event', raw: data } };
}

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
