import { computeImageCost } from '../../billing/operation-pricing.js';
import type { ImagesAsk, ImagesResult, PartialImage } from '../../core/images.js';
import { measurePictures, type PictureMeasure } from '../../core/media-measure.js';
import { GatewayError } from '../../core/errors.js';
import { encodeImageGenerationsReply, encodeImagesReply } from '../../dialects/images/encode.js';
import { imageGenerationsStream, imagesStream } from '../../dialects/images/encode-stream.js';
import { imagesAdapters } from '../../upstream/operation-registry.js';
import type { OperationBinding, OperationStreamBinding } from '../operation-binding.js';

const measured = new WeakMap<ImagesResult, PictureMeasure | null>();

/** The megapixels and sizes of the pictures whose bytes came back (those given only as URLs are not fetched), read once per result. */
function measure(result: ImagesResult): PictureMeasure | undefined {
  let read = measured.get(result);
  if (read === undefined) {
    read = measurePictures(result.images.flatMap((image) => (image.kind === 'data' ? [image.base64] : []))) ?? null;
    measured.set(result, read);
  }
  return read ?? undefined;
}

/** A picture given only as a URL where the reply must carry bytes: the provider's failure (502), charged nothing. */
function urlRefusal(result: ImagesResult, instead: string): GatewayError | undefined {
  return result.images.some((image) => image.kind === 'url')
    ? new GatewayError('provider_failed', `The provider returned a picture only as a URL, which this reply cannot carry as bytes; ${instead}`)
    : undefined;
}

/**
 * With `stream: true`: partial pictures where the endpoint streams them, then each picture. A stream
 * carries bytes only, so pictures given only as URLs are refused as on POST /images.
 */
const streamed: Pick<OperationStreamBinding<ImagesAsk, ImagesResult, PartialImage>, 'streamed' | 'execute' | 'refuse'> = {
  streamed: (ask) => ask.stream === true,
  execute: (executor, ask, plan, signal) => executor.unaryStream(ask, plan, signal, imagesAdapters),
  refuse: (result) => urlRefusal(result, 'a streamed reply carries bytes only'),
};

/**
 * Image generation: one call, billed by rule 13 at the serving endpoint's prices (per picture, per
 * megapixel read from the bytes, per output token as reported); the record keeps the counts and the
 * megapixels, and the endpoint's render timing the megapixels, sizes and seconds of each render.
 */
export const imageGenerationsOperation: OperationBinding<ImagesAsk, ImagesResult, PartialImage> = {
  execute: (executor, ask, plan, signal) => executor.unary(ask, plan, signal, imagesAdapters),
  recorded: (result) => {
    const megapixels = measure(result)?.megapixels;
    return {
      usage: {
        ...(result.usage.inputTokens !== undefined && { promptTokens: result.usage.inputTokens }),
        ...(result.usage.outputTokens !== undefined && { completionTokens: result.usage.outputTokens }),
        ...(megapixels !== undefined && { imageMegapixels: megapixels }),
      },
      ...(result.upstreamId !== undefined && { upstreamId: result.upstreamId }),
      finishReason: 'stop',
    };
  },
  price: (pricing, result, _outcome, now, ask) => {
    const megapixels = measure(result)?.megapixels;
    return computeImageCost(pricing, {
      images: result.images.length,
      referenceImages: ask.references.length,
      ...(result.usage.inputTokens !== undefined && { promptTokens: result.usage.inputTokens }),
      ...(result.usage.outputTokens !== undefined && { outputTokens: result.usage.outputTokens }),
      ...(megapixels !== undefined && { megapixels }),
    }, now);
  },
  rendered: (result) => {
    const pictures = measure(result);
    return pictures && { megapixels: Number(pictures.megapixels), sizes: pictures.sizes };
  },
  encode: encodeImageGenerationsReply,
  stream: { ...streamed, ...imageGenerationsStream },
};

/**
 * The same call answered in the hosted marketplace's shape (POST /images), which carries bytes
 * only: pictures the endpoint gave only as URLs are refused as a provider error (502), recorded
 * with their counts and charged nothing.
 */
export const imagesOperation: OperationBinding<ImagesAsk, ImagesResult, PartialImage> = {
  ...imageGenerationsOperation,
  refuse: (result) => urlRefusal(result, 'POST /images/generations returns URLs'),
  encode: encodeImagesReply,
  stream: { ...streamed, ...imagesStream },
};
