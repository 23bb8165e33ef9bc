import type { DecodedOperation } from '../../core/decoded-operation.js';
import type { ImageReference, ImagesAsk } from '../../core/images.js';
import { invalidRequest } from '../../core/errors.js';
import { containerOf, parseDataUrl } from '../../core/media-type.js';
import type { ImageRender, RenderReference } from '../../core/operation.js';
import { TokenEstimator } from '../../core/token-estimate.js';
import { readSessionHeader, type HeaderBag } from '../shared/request-headers.js';
import { singleCallRequest } from '../shared/single-call-request.js';
import type { ImageGenerationsRequestBody, ImagesRequestBody } from './schema.js';

/** POST /images/generations → the routing request (with what the image envelopes must admit), the planner's facts and the core ask. */
export function decodeImageGenerationsRequest(body: ImageGenerationsRequestBody, headers: HeaderBag): DecodedOperation<ImagesAsk> {
  if (body.stream === true && body.response_format === 'url') throw invalidRequest('response_format', 'a streamed picture is sent as its bytes: url cannot be streamed');
  const ask: ImagesAsk = { prompt: body.prompt, n: body.n ?? 1, references: [], responseFormat: body.response_format ?? 'b64_json' };
  if (body.size !== undefined && body.size !== 'auto') ask.size = body.size;
  return decoded(body, headers, ask);
}

/** POST /images (the hosted marketplace's shape): a tier `size` is a resolution; explicit pixels are authoritative. */
export function decodeImagesRequest(body: ImagesRequestBody, headers: HeaderBag): DecodedOperation<ImagesAsk> {
  const ask: ImagesAsk = { prompt: body.prompt, n: body.n ?? 1, references: (body.input_references ?? []).map((part, index) => referenceOf(part.image_url.url, index)), responseFormat: 'b64_json' };
  const tier = body.size !== undefined && !body.size.includes('x') && body.size !== 'auto' ? body.size : undefined;
  if (body.size?.includes('x')) {
    if (body.resolution !== undefined) throw invalidRequest('resolution', `resolution ${body.resolution} beside an explicit size ${body.size}: name one`);
    if (body.aspect_ratio !== undefined && body.aspect_ratio !== 'auto') throw invalidRequest('aspect_ratio', `aspect_ratio ${body.aspect_ratio} beside an explicit size ${body.size}: name one`);
    ask.size = body.size;
  }
  if (tier !== undefined && body.resolution !== undefined && body.resolution !== tier) throw invalidRequest('resolution', `resolution ${body.resolution} differs from size ${tier}`);
  const resolution = tier ?? body.resolution;
  if (resolution !== undefined) ask.resolution = resolution;
  if (body.aspect_ratio !== undefined && body.aspect_ratio !== 'auto') ask.aspectRatio = body.aspect_ratio;
  const request = decoded(body, headers, ask);
  if (body.session_id !== undefined) request.request.sessionId = body.session_id;
  return request;
}

/** A reference picture: a data URL's bytes, or an http(s) URL the provider fetches. */
function referenceOf(url: string, index: number): ImageReference {
  const data = parseDataUrl(url);
  if (data?.base64 && data.mediaType.startsWith('image/')) return { kind: 'data', mediaType: data.mediaType, base64: data.data };
  if (/^https?:\/\//.test(url)) return { kind: 'url', url };
  throw invalidRequest(`input_references[${index}].image_url.url`, 'must be a base64 data URL of an image or an http(s) URL');
}

function decoded(body: ImageGenerationsRequestBody | ImagesRequestBody, headers: HeaderBag, ask: ImagesAsk): DecodedOperation<ImagesAsk> {
  if (body.partial_images !== undefined && body.stream !== true) throw invalidRequest('partial_images', 'only with stream: true');
  if (body.stream === true) ask.stream = true;
  if (body.partial_images !== undefined) ask.partialImages = body.partial_images;
  if (body.quality !== undefined) ask.quality = body.quality;
  if (body.background !== undefined) ask.background = body.background;
  if (body.output_format !== undefined) ask.outputFormat = body.output_format;
  if (body.output_compression !== undefined) ask.outputCompression = body.output_compression;
  if (body.seed !== undefined) ask.seed = body.seed;
  if (body.user !== undefined) ask.user = body.user;
  const request = singleCallRequest(body, headers, { operation: renderOf(ask) });
  const session = readSessionHeader(headers);
  if (session !== undefined) request.sessionId = session;
  const promptTokens = new TokenEstimator().count(body.prompt);
  return { request, facts: { promptTokens, messageTokens: [], toolTokens: 0, inputs: [], windowTokens: promptTokens }, ask };
}

/** What the image envelopes must admit: the ask's size, format and render parameters, and how many pictures and references. */
function renderOf(ask: ImagesAsk): ImageRender {
  const { size, aspectRatio, resolution, outputFormat, quality, background } = ask;
  const asked = { size, aspectRatio, resolution, outputFormat, quality, background };
  const render: ImageRender = { kind: 'image', n: ask.n, references: ask.references.map(routedReference) };
  for (const [name, value] of Object.entries(asked) as [keyof typeof asked, string | undefined][]) if (value !== undefined) render[name] = value;
  return render;
}

function routedReference(reference: ImageReference): RenderReference {
  if (reference.kind === 'url') return {};
  const format = containerOf(reference.mediaType);
  return { ...(format !== undefined && { format }), bytes: Buffer.byteLength(reference.base64, 'base64') };
}
