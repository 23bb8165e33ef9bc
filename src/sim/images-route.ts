import { setTimeout as sleep } from 'node:timers/promises';
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { stripDirectives } from './behaviour.js';
import { passBehaviourGate } from './behaviour-gate.js';
import type { ParsedBody } from './chat-route.js';
import { readImageRequest, type ImagePlan, type ReportedQuality } from './image-request.js';
import { IMAGE_FILES_PATH, type ImageStore } from './image-store.js';
import { sendError, sendJson } from './json-reply.js';
import { isPlainObject } from '../core/plain-object.js';
import { buildPng, patternFromDigest } from './png-image.js';
import { countTextPromptTokens } from './prompt-tokens.js';

/** Output tokens of one 1024×1024 picture by quality, as gpt-image-1 bills them; other sizes scale by area. */
const TOKENS_PER_MEGAPICTURE = { low: 272, medium: 1056, high: 4160 } as const satisfies Record<ReportedQuality, number>;
const REFERENCE_AREA = 1024 * 1024;

export interface ImageRouteContext {
  sequence: number;
  /** `http://host:port` as the client reached the simulator, for `url` replies. */
  origin: string;
  store: ImageStore;
}

/** The same prompt, references and index always draw the same picture; another of any of them another one. */
export function generatedPng(plan: Pick<ImagePlan, 'prompt' | 'width' | 'height' | 'transparent' | 'references'>, index: number): Buffer {
  const digest = createHash('sha256').update(`${plan.prompt}\u0000${plan.references.join('\u0000')}\u0000${index}`).digest();
  return buildPng(plan.width, plan.height, patternFromDigest(digest, plan.transparent));
}

/** Input tokens a reference picture counts for, whatever its size. */
const REFERENCE_TOKENS = 85;

function imageTokens(plan: ImagePlan): number {
  const each = Math.max(1, Math.round((TOKENS_PER_MEGAPICTURE[plan.quality] * plan.width * plan.height) / REFERENCE_AREA));
  return each * plan.count;
}

function usageOf(plan: ImagePlan): Record<string, unknown> {
  const text = countTextPromptTokens(plan.prompt);
  const references = REFERENCE_TOKENS * plan.references.length;
  const output = imageTokens(plan);
  return {
    input_tokens: text + references,
    input_tokens_details: { text_tokens: text, image_tokens: references },
    output_tokens: output,
    output_tokens_details: { image_tokens: output, text_tokens: 0 },
    total_tokens: text + references + output,
  };
}

/** dall-e models answer URLs by default, with the prompt they drew; gpt-image models base64 and the settings used. */
function isDallE(model: string): boolean {
  return (model.split(';', 1)[0] ?? '').startsWith('dall-e');
}

/**
 * `POST /v1/images/generations`, OpenAI's wire: `n` deterministic PNGs of the asked size (see
 * image-request.ts for the members and their limits). A model whose base name starts with `dall-e`
 * answers `{created, data: [{url | b64_json, revised_prompt}]}` with `url` by default; any other
 * model answers as gpt-image does: `{created, data: [{b64_json | url}], background, output_format,
 * quality, size, usage}` with `b64_json` by default and token usage (the prompt's o200k tokens in;
 * 272 / 1056 / 4160 tokens per 1024×1024 picture at low / medium / high quality out, scaled by area).
 * A `url` is served by the simulator itself under `/v1/images/files/`. With `stream: true` a gpt-image
 * model answers an event stream (`partial_images` partial pictures, then each picture; see
 * streamImages) and a dall-e model refuses it. Behaviours from the model name
 * and `[[sim …]]` in the prompt: `error=STATUS`, `ttft=MS`, `refuse_param=NAME`, `require_param=NAME`,
 * `disconnect_after=0`, `no_usage`.
 */
export async function handleImageGeneration(res: ServerResponse, parsed: ParsedBody, context: ImageRouteContext): Promise<void> {
  if (!parsed.ok || !isPlainObject(parsed.value)) return sendError(res, 400, 'We could not parse the JSON body of your request.');
  const body = parsed.value;
  // OpenAI picks a default model when none is named; the simulator answers as a gpt-image model.
  const model = typeof body.model === 'string' && body.model !== '' ? body.model : 'image';
  const read = readImageRequest(body);
  if (!read.ok) return sendError(res, 400, read.problem.message, { param: read.problem.param });
  const plan = read.value;
  const behaviour = await passBehaviourGate(res, { model, text: plan.prompt, members: body });
  if (!behaviour) return;
  const dallE = isDallE(model);
  if (plan.stream) {
    if (dallE) return sendError(res, 400, `Streaming is not supported by model '${model}'.`, { param: 'stream' });
    if (plan.responseFormat === 'url') return sendError(res, 400, 'A streamed image is sent as b64_json, not url.', { param: 'response_format' });
    return streamImages(res, plan, behaviour.usage);
  }
  const asUrl = (plan.responseFormat ?? (dallE ? 'url' : 'b64_json')) === 'url';
  const data = Array.from({ length: plan.count }, (_, index) => {
    const png = generatedPng(plan, index);
    const picture: Record<string, string> = {};
    if (asUrl) {
      const name = `img-sim${context.sequence}-${index}.png`;
      context.store.put(name, png);
      picture.url = `${context.origin}${IMAGE_FILES_PATH}${name}`;
    } else picture.b64_json = png.toString('base64');
    if (dallE) picture.revised_prompt = stripDirectives(plan.prompt).trim();
    return picture;
  });
  const created = Math.floor(Date.now() / 1000);
  if (dallE) return sendJson(res, 200, { created, data });
  sendJson(res, 200, {
    created,
    background: plan.transparent ? 'transparent' : 'opaque',
    data,
    output_format: 'png',
    quality: plan.quality,
    size: `${plan.width}x${plan.height}`,
    ...(behaviour.usage && { usage: usageOf(plan) }),
  });
}

/** Between one streamed event and the next, as a model drawing would pause. */
const STREAM_STEP_MS = 5;

/**
 * The gpt-image event stream: for each picture, `partials` `image_generation.partial_image` events
 * (each a picture of its own, index counting from 0 over the call), then its
 * `image_generation.completed` with the call's usage.
 */
async function streamImages(res: ServerResponse, plan: ImagePlan, withUsage: boolean): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const settings = {
    created_at: Math.floor(Date.now() / 1000),
    size: `${plan.width}x${plan.height}`,
    quality: plan.quality,
    background: plan.transparent ? 'transparent' : 'opaque',
    output_format: 'png',
  };
  const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data, ...settings })}\n\n`);
  let partialIndex = 0;
  for (let index = 0; index < plan.count; index += 1) {
    for (let partial = 0; partial < (plan.stream?.partials ?? 0); partial += 1) {
      const draft = generatedPng({ ...plan, prompt: `${plan.prompt}\u0000draft ${partial}` }, index);
      send('image_generation.partial_image', { b64_json: draft.toString('base64'), partial_image_index: partialIndex });
      partialIndex += 1;
      await sleep(STREAM_STEP_MS);
    }
    send('image_generation.completed', { b64_json: generatedPng(plan, index).toString('base64'), ...(withUsage && { usage: usageOf(plan) }) });
  }
  res.end();
}

/** `GET /v1/images/files/{name}`: a picture an earlier `url` reply named; 404 once forgotten. */
export function serveImageFile(res: ServerResponse, name: string, store: ImageStore): void {
  const png = store.get(name);
  if (!png) return sendError(res, 404, `No such image file: ${name}`);
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
  res.end(png);
}
