import { ANY_KEY, MappingReader } from './mapping-reader.js';
import { readDescriptors } from './passthrough-schema.js';
import type { Benchmark, Capacity, EndpointListingFacts, ImageEnvelope, MeshEnvelope, ParameterDescriptor, VideoEnvelope } from './types.js';

/** Endpoint fields read here: what only the public listing shows. */
export const LISTING_FACT_FIELDS = [
  'tokenizer',
  'max_prompt_tokens',
  'supports_implicit_caching',
  'supported_languages',
  'render_parameters',
  'image_envelope',
  'video_envelope',
  'mesh_envelope',
  'benchmarks',
  'capacity',
];

const IMAGE_FIELDS = ['sizes', 'formats', 'max_images'];
const VIDEO_FIELDS = ['frame', 'max_seconds', 'frame_step', 'audio'];
const MESH_FIELDS = ['max_faces', 'min_faces', 'texture'];
const BENCHMARK_FIELDS = ['dataset', 'score', 'sample_count'];
const CAPACITY_FIELDS = ['current', 'total', 'updated_at'];

const IMAGE_FORMATS = ['png', 'jpeg', 'webp', 'gif'] as const;
/** Outputs that are rendered, and so may take render parameters. */
const RENDERED = ['image', 'video', 'mesh', 'audio', 'speech'];
const FRAME = /^[1-9]\d{0,4}x[1-9]\d{0,4}$/;
const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** Facts an endpoint declares for the public listing; routing reads only the image envelope and render parameters (image generation). */
export function readListingFacts(fields: MappingReader, context: { contextLength: number; outputModalities: readonly string[] }): EndpointListingFacts {
  const maxPromptTokens = fields.optionalInteger('max_prompt_tokens', { min: 1 });
  if (maxPromptTokens !== null && context.contextLength > 0 && maxPromptTokens > context.contextLength) {
    fields.problem('max_prompt_tokens', `must not exceed context_length (${context.contextLength})`);
  }
  return {
    tokenizer: fields.optionalString('tokenizer'),
    maxPromptTokens,
    supportsImplicitCaching: fields.boolean('supports_implicit_caching', false),
    supportedLanguages: fields.has('supported_languages')
      ? fields.stringList('supported_languages', { pattern: LANGUAGE, patternMessage: 'must be a language tag such as en or pt-BR' })
      : null,
    renderParameters: readRenderParameters(fields.mapping('render_parameters', ANY_KEY, true), context.outputModalities),
    imageEnvelope: producing(fields, 'image_envelope', 'image', context.outputModalities, readImageEnvelope),
    videoEnvelope: producing(fields, 'video_envelope', 'video', context.outputModalities, readVideoEnvelope),
    meshEnvelope: producing(fields, 'mesh_envelope', 'mesh', context.outputModalities, readMeshEnvelope),
    benchmarks: fields.list('benchmarks', true).flatMap((item) => {
      const benchmark = readBenchmark(MappingReader.open(item.value, item.path, fields.problems, BENCHMARK_FIELDS));
      return benchmark ? [benchmark] : [];
    }),
    capacity: readCapacity(fields.mapping('capacity', CAPACITY_FIELDS, true)),
  };
}

/** An output envelope belongs to an endpoint that produces that output. */
function producing<T>(
  fields: MappingReader,
  key: string,
  output: string,
  outputModalities: readonly string[],
  read: (envelope: MappingReader) => T,
): T | null {
  if (!fields.has(key)) return null;
  if (!outputModalities.includes(output)) fields.problem(key, `only for endpoints whose output_modalities include ${output}`);
  const envelope = fields.mapping(key, key === 'image_envelope' ? IMAGE_FIELDS : key === 'video_envelope' ? VIDEO_FIELDS : MESH_FIELDS);
  return envelope ? read(envelope) : null;
}

/** `render_parameters`: descriptors by name under each output modality the endpoint renders. */
function readRenderParameters(
  byModality: MappingReader | null,
  outputModalities: readonly string[],
): Record<string, Record<string, ParameterDescriptor>> | null {
  if (!byModality) return null;
  const read: Record<string, Record<string, ParameterDescriptor>> = {};
  for (const modality of byModality.keys()) {
    if (!RENDERED.includes(modality) || !outputModalities.includes(modality)) {
      byModality.problem(modality, `must be a rendered output of the endpoint (${RENDERED.filter((output) => outputModalities.includes(output)).join(', ') || 'none'})`);
      continue;
    }
    read[modality] = Object.fromEntries(readDescriptors(byModality.mapping(modality, ANY_KEY)));
  }
  return read;
}

function readImageEnvelope(envelope: MappingReader): ImageEnvelope {
  return {
    sizes: envelope.stringList('sizes', { pattern: FRAME, patternMessage: 'must be WIDTHxHEIGHT in pixels' }),
    formats: envelope.stringList('formats', { allowed: IMAGE_FORMATS }),
    max_images: envelope.optionalInteger('max_images', { min: 1 }),
  };
}

function readVideoEnvelope(envelope: MappingReader): VideoEnvelope {
  return {
    frame: envelope.string('frame', { pattern: FRAME, patternMessage: 'must be WIDTHxHEIGHT in pixels' }),
    max_seconds: positiveNumber(envelope, 'max_seconds') ?? 0,
    frame_step: envelope.optionalInteger('frame_step', { min: 1 }),
    audio: envelope.boolean('audio', false),
  };
}

function readMeshEnvelope(envelope: MappingReader): MeshEnvelope {
  const maxFaces = envelope.integer('max_faces', { min: 1 });
  const minFaces = envelope.optionalInteger('min_faces', { min: 1 });
  if (minFaces !== null && maxFaces > 0 && minFaces > maxFaces) envelope.problem('min_faces', `must not exceed max_faces (${maxFaces})`);
  return { max_faces: maxFaces, min_faces: minFaces, texture: envelope.boolean('texture', false) };
}

function readBenchmark(fields: MappingReader | null): Benchmark | null {
  if (!fields) return null;
  const dataset = fields.string('dataset');
  const score = finiteNumber(fields, 'score');
  const sampleCount = fields.optionalInteger('sample_count', { min: 1 });
  return score === null ? null : { dataset, score, sample_count: sampleCount };
}

function readCapacity(fields: MappingReader | null): Capacity | null {
  if (!fields) return null;
  const current = fields.integer('current', { min: 0 });
  const total = fields.integer('total', { min: 1 });
  if (total > 0 && current > total) fields.problem('current', `must not exceed total (${total})`);
  const updatedAt = fields.string('updated_at', { pattern: ISO_INSTANT, patternMessage: 'must be an ISO 8601 instant with its offset' });
  return { current, total, updated_at: updatedAt };
}

function finiteNumber(fields: MappingReader, key: string): number | null {
  const value = fields.raw(key);
  if (!fields.has(key)) {
    fields.problem(key, 'required');
    return null;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    fields.problem(key, 'must be a number');
    return null;
  }
  return value;
}

function positiveNumber(fields: MappingReader, key: string): number | null {
  const value = finiteNumber(fields, key);
  if (value !== null && value <= 0) {
    fields.problem(key, 'must be above 0');
    return null;
  }
  return value;
}
