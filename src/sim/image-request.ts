import { isPlainObject } from '../core/plain-object.js';

/** The simulator's cap on each side of a generated picture, so no request makes it allocate a huge one. */
export const MAX_GENERATED_SIDE = 2048;
/** OpenAI's cap on `n`. */
export const MAX_IMAGES = 10;
/** What `size: "auto"` (or no size) renders. */
const AUTO_SIDE = 1024;
const SIZE = /^(\d+)x(\d+)$/;

/** The quality a gpt-image reply reports: `auto` and dall-e's `standard` read as medium, `hd` as high. */
export type ReportedQuality = 'low' | 'medium' | 'high';

const QUALITY_REPORTED = { auto: 'medium', standard: 'medium', low: 'low', medium: 'medium', high: 'high', hd: 'high' } as const satisfies Record<string, ReportedQuality>;

/** Members taking one of a few words, as the official client types them; null reads as absent. */
const CHOICES = {
  quality: Object.keys(QUALITY_REPORTED),
  background: ['transparent', 'opaque', 'auto'],
  moderation: ['low', 'auto'],
  output_format: ['png', 'jpeg', 'webp'],
  response_format: ['b64_json', 'url'],
  style: ['vivid', 'natural'],
} as const satisfies Record<string, readonly string[]>;

/** A generation request as the simulator renders it. */
export interface ImagePlan {
  prompt: string;
  count: number;
  width: number;
  height: number;
  quality: ReportedQuality;
  transparent: boolean;
  /** Undefined when the request named none: the model family's default applies. */
  responseFormat: 'b64_json' | 'url' | undefined;
  /** Reference pictures (`input_references`), each a data URL or an https URL. */
  references: string[];
  /** Answered as an event stream, with this many partial pictures before each picture. */
  stream: { partials: number } | undefined;
}

export interface ImageRequestProblem {
  message: string;
  param: string;
}

type Read<T> = { ok: true; value: T } | { ok: false; problem: ImageRequestProblem };

function refuse<T>(param: string, message: string): Read<T> {
  return { ok: false, problem: { param, message } };
}

function readSize(value: unknown): Read<{ width: number; height: number }> {
  if (value === undefined || value === null || value === 'auto') return { ok: true, value: { width: AUTO_SIDE, height: AUTO_SIDE } };
  const match = typeof value === 'string' ? SIZE.exec(value) : null;
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  const fits = (side: number): boolean => side >= 1 && side <= MAX_GENERATED_SIDE;
  if (!match || !fits(width) || !fits(height)) {
    return refuse('size', `Invalid size ${JSON.stringify(value)}: use "auto" or WIDTHxHEIGHT, each side from 1 to ${MAX_GENERATED_SIDE}.`);
  }
  return { ok: true, value: { width, height } };
}

function wholeIn(value: unknown, low: number, high: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= low && value <= high;
}

/** Every member with a fixed set of words; the first one holding another word. */
function choiceProblem(body: Record<string, unknown>): ImageRequestProblem | undefined {
  for (const [member, words] of Object.entries(CHOICES)) {
    const value = body[member];
    if (value === undefined || value === null) continue;
    if (!(words as readonly unknown[]).includes(value)) return { param: member, message: `Invalid value for '${member}': expected one of ${words.join(', ')}.` };
  }
  return undefined;
}

/**
 * Formats, compression and streaming: only PNG bytes are really produced, so `jpeg` and `webp` are
 * refused as a model without them would refuse them, and so is an `output_compression` below 100
 * (which PNG has no use for).
 */
function outputProblem(body: Record<string, unknown>): ImageRequestProblem | undefined {
  const format = body.output_format ?? 'png';
  if (format !== 'png') return { param: 'output_format', message: `output_format '${String(format)}' is not supported by this model; it produces png.` };
  const compression = body.output_compression;
  if (compression !== undefined && compression !== null) {
    if (!wholeIn(compression, 0, 100)) return { param: 'output_compression', message: 'output_compression must be a whole number from 0 to 100.' };
    if (compression < 100) return { param: 'output_compression', message: 'Compression less than 100 is not supported for PNG output format.' };
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') return { param: 'stream', message: 'stream must be a boolean.' };
  const partial = body.partial_images;
  if (partial !== undefined && partial !== null && !wholeIn(partial, 0, 3)) return { param: 'partial_images', message: 'partial_images must be a whole number from 0 to 3.' };
  return undefined;
}

/** The most reference pictures a request may carry. */
const MAX_REFERENCES = 16;
const REFERENCE_URL = /^(data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/]+=*|https:\/\/\S+)$/;

/** `input_references`: image parts (`{type: image_url, image_url: {url}}`) holding a base64 data URL or an https URL. */
function readReferences(value: unknown): Read<string[]> {
  if (value === undefined || value === null) return { ok: true, value: [] };
  if (!Array.isArray(value) || value.length > MAX_REFERENCES) return refuse('input_references', `input_references must be a list of at most ${MAX_REFERENCES} image parts.`);
  const urls: string[] = [];
  for (const [index, part] of value.entries()) {
    const url: unknown = isPlainObject(part) && part.type === 'image_url' && isPlainObject(part.image_url) ? part.image_url.url : undefined;
    if (typeof url !== 'string' || !REFERENCE_URL.test(url)) {
      return refuse(`input_references[${index}]`, 'Each reference must be {type: "image_url", image_url: {url}} with a base64 image data URL or an https URL.');
    }
    urls.push(url);
  }
  return { ok: true, value: urls };
}

/** `POST /v1/images/generations` members read and checked; a value out of range is refused naming it. */
export function readImageRequest(body: Record<string, unknown>): Read<ImagePlan> {
  const prompt = body.prompt;
  if (typeof prompt !== 'string' || prompt === '') return refuse('prompt', "Missing required parameter: 'prompt'.");
  const count = body.n ?? 1;
  if (!wholeIn(count, 1, MAX_IMAGES)) return refuse('n', `n must be a whole number from 1 to ${MAX_IMAGES}.`);
  const size = readSize(body.size);
  if (!size.ok) return size;
  const problem = choiceProblem(body) ?? outputProblem(body);
  if (problem) return { ok: false, problem };
  if (body.user !== undefined && typeof body.user !== 'string') return refuse('user', 'user must be a string.');
  const references = readReferences(body.input_references);
  if (!references.ok) return references;
  const quality = QUALITY_REPORTED[(body.quality ?? 'auto') as keyof typeof QUALITY_REPORTED];
  return {
    ok: true,
    value: {
      prompt,
      count,
      ...size.value,
      quality,
      transparent: body.background === 'transparent',
      responseFormat: (body.response_format ?? undefined) as ImagePlan['responseFormat'],
      references: references.value,
      stream: body.stream === true ? { partials: typeof body.partial_images === 'number' ? body.partial_images : 0 } : undefined,
    },
  };
}
