import type { DecodedOperation } from '../../core/decoded-operation.js';
import type { ImagesAsk } from '../../core/images.js';
import type { ImageRender } from '../../core/operation.js';
import { TokenEstimator } from '../../core/token-estimate.js';
import { readSessionHeader, type HeaderBag } from '../shared/request-headers.js';
import { singleCallRequest } from '../shared/single-call-request.js';
import type { ImageGenerationsRequestBody } from './schema.js';

/** POST /images/generations → the routing request (with what the image envelopes must admit), the planner's facts and the core ask. */
export function decodeImageGenerationsRequest(body: ImageGenerationsRequestBody, headers: HeaderBag): DecodedOperation<ImagesAsk> {
  const ask: ImagesAsk = { prompt: body.prompt, n: body.n ?? 1, references: [], responseFormat: body.response_format ?? 'b64_json' };
  if (body.size !== undefined && body.size !== 'auto') ask.size = body.size;
  if (body.quality !== undefined) ask.quality = body.quality;
  if (body.background !== undefined) ask.background = body.background;
  if (body.output_format !== undefined) ask.outputFormat = body.output_format;
  if (body.output_compression !== undefined) ask.outputCompression = body.output_compression;
  if (body.seed !== undefined) ask.seed = body.seed;
  if (body.user !== undefined) ask.user = body.user;
  const render: ImageRender = { kind: 'image', n: ask.n, references: ask.references.length };
  if (ask.size !== undefined) render.size = ask.size;
  if (ask.outputFormat !== undefined) render.outputFormat = ask.outputFormat;
  if (ask.quality !== undefined) render.quality = ask.quality;
  if (ask.background !== undefined) render.background = ask.background;
  const request = singleCallRequest(body, headers, { operation: render });
  const session = readSessionHeader(headers);
  if (session !== undefined) request.sessionId = session;
  const promptTokens = new TokenEstimator().count(body.prompt);
  return { request, facts: { promptTokens, messageTokens: [], toolTokens: 0, inputs: [], windowTokens: promptTokens }, ask };
}
