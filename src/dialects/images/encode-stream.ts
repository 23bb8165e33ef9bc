import type { GatewayError } from '../../core/errors.js';
import type { ImagesAsk, ImagesResult, PartialImage } from '../../core/images.js';
import type { ReplyMeta } from '../shared/reply-meta.js';
import { encodeImageGenerationsReply, encodeImagesReply } from './encode.js';

/** One named event (OpenAI's image stream names each). */
function named(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** The settings OpenAI's image events repeat on each event, as asked (`auto` where not). */
function settingsOf(ask: ImagesAsk, meta: ReplyMeta, mediaType: string): Record<string, unknown> {
  return {
    created_at: meta.created,
    size: ask.size ?? 'auto',
    quality: ask.quality ?? 'auto',
    background: ask.background ?? 'auto',
    output_format: mediaType.slice('image/'.length),
  };
}

/**
 * POST /images/generations with `stream: true`, as OpenAI streams it and its client reads it:
 * `image_generation.partial_image` events as the endpoint draws, then one
 * `image_generation.completed` per picture carrying the call's usage with its exact `cost`; a
 * failure is an `error` event.
 */
export const imageGenerationsStream = {
  piece(piece: PartialImage, meta: ReplyMeta, ask: ImagesAsk): string {
    return named('image_generation.partial_image', { b64_json: piece.base64, ...settingsOf(ask, meta, piece.mediaType), partial_image_index: piece.index });
  },
  result(result: ImagesResult, meta: ReplyMeta, ask: ImagesAsk, cost: number): string {
    const { usage } = encodeImageGenerationsReply(result, meta, ask, cost) as { usage: Record<string, unknown> };
    return result.images
      .map((image) => (image.kind === 'data' ? named('image_generation.completed', { b64_json: image.base64, ...settingsOf(ask, meta, image.mediaType), usage }) : ''))
      .join('');
  },
  fail(error: GatewayError): string {
    return named('error', { error: { message: error.message, type: error.code, code: error.status } });
  },
};

/**
 * POST /images with `stream: true`, in the hosted marketplace's shape (its client reads it as
 * `ImageStreamingResponse` events): `image_generation.partial_image`, then one
 * `image_generation.completed` per picture with its media type and the call's usage and exact
 * `cost`, then `[DONE]`; a failure is an `error` event before `[DONE]`.
 */
export const imagesStream = {
  piece(piece: PartialImage): string {
    return data({ type: 'image_generation.partial_image', b64_json: piece.base64, partial_image_index: piece.index });
  },
  result(result: ImagesResult, meta: ReplyMeta, ask: ImagesAsk, cost: number): string {
    const { usage } = encodeImagesReply(result, meta, ask, cost) as { usage: Record<string, unknown> };
    const completed = result.images.map((image) => (image.kind === 'data'
      ? data({ type: 'image_generation.completed', b64_json: image.base64, created: meta.created, media_type: image.mediaType, usage })
      : ''));
    return `${completed.join('')}data: [DONE]\n\n`;
  },
  fail(error: GatewayError): string {
    return `${data({ type: 'error', error: { message: error.message, code: String(error.status) } })}data: [DONE]\n\n`;
  },
};

function data(event: Record<string, unknown>): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}
