import { readInputContainers, readInputSources } from './input-declarations-schema.js';
import { LISTING_FACT_FIELDS, readListingFacts } from './listing-facts-schema.js';
import { MappingReader } from './mapping-reader.js';
import { INPUT_MODALITIES, OUTPUT_MODALITIES } from './modalities.js';
import { readOperationDeclarations } from './operation-declarations-schema.js';
import { readPassthrough } from './passthrough-schema.js';
import { readPricing } from './pricing-schema.js';
import type { ProblemList } from './problem-list.js';
import { readReasoning } from './reasoning-schema.js';
import { readSpeechDeclarations } from './speech-declarations-schema.js';
import type { EndpointEntry, ProviderEntry } from './types.js';

export const QUANTIZATIONS = ['int2', 'int4', 'int8', 'fp4', 'fp6', 'fp8', 'fp16', 'bf16', 'fp32', 'unknown'] as const;
const MAX_TOKENS_PARAMETERS = ['max_tokens', 'max_completion_tokens'] as const;

const ENDPOINT_FIELDS = [
  'provider',
  'upstream_model',
  'quantization',
  'context_length',
  'max_completion_tokens',
  'max_tokens_parameter',
  'input_modalities',
  'output_modalities',
  'supported_parameters',
  'pricing',
  'disabled',
  'reasoning',
  'passthrough_parameters',
  'input_sources',
  'input_containers',
  'tool_call_dispatch',
  'speech_envelope',
  'supports_voice_cloning',
  'reference_inputs',
  'supported_dimensions',
  'text_completions',
  ...LISTING_FACT_FIELDS,
];

/** An endpoint as read from the file, before the index gives it its identity. */
export type EndpointDraft = Omit<EndpointEntry, 'id'>;

export interface EndpointContext {
  modelId: string;
  providers: ReadonlyMap<string, ProviderEntry>;
  problems: ProblemList;
}

/** One `models[i].endpoints[j]` entry; null when it is not a mapping or names no known provider. */
export function readEndpoint(value: unknown, path: string, context: EndpointContext): EndpointDraft | null {
  const fields = MappingReader.open(value, path, context.problems, ENDPOINT_FIELDS);
  if (!fields) return null;
  const provider = readProviderRef(fields, context.providers);
  const body = readEndpointBody(fields, context.modelId);
  if (body.textCompletions && provider && provider.api !== 'openai') {
    fields.problem('text_completions', `only an openai-API provider speaks the text-completions wire (${provider.slug} speaks ${provider.api})`);
  }
  const operations = readOperationDeclarations(fields, { input: body.inputModalities, output: body.outputModalities }, provider);
  return provider ? { ...body, ...operations, provider } : null;
}

function readEndpointBody(fields: MappingReader, modelId: string): Omit<EndpointDraft, 'provider' | 'supportedDimensions'> {
  const quantization = fields.choice('quantization', QUANTIZATIONS, 'unknown');
  const contextLength = fields.integer('context_length', { min: 1 });
  const maxCompletionTokens = fields.optionalInteger('max_completion_tokens', { min: 1 });
  if (maxCompletionTokens !== null && contextLength > 0 && maxCompletionTokens > contextLength) {
    fields.problem('max_completion_tokens', `must not exceed context_length (${contextLength})`);
  }
  const body = {
    modelId,
    upstreamModel: fields.string('upstream_model'),
    quantization: quantization === 'unknown' ? null : quantization,
    contextLength,
    maxCompletionTokens,
    maxTokensParameter: fields.choice('max_tokens_parameter', MAX_TOKENS_PARAMETERS, 'max_tokens') ?? 'max_tokens',
    inputModalities: readModalities(fields, 'input_modalities'),
    outputModalities: readModalities(fields, 'output_modalities'),
    supportedParameters: new Set(fields.stringList('supported_parameters')),
    pricing: readPricing(fields),
    disabled: fields.boolean('disabled', false),
    textCompletions: fields.boolean('text_completions', false),
  };
  const listing = readListingFacts(fields, { contextLength, outputModalities: body.outputModalities });
  return { ...body, listing, ...readRoutingDeclarations(fields, body.inputModalities), ...readSpeechDeclarations(fields, body.outputModalities) };
}

type RoutingDeclarations = Pick<EndpointDraft, 'reasoning' | 'passthrough' | 'inputSources' | 'inputContainers' | 'toolCallDispatch'>;

/** What routing matches a request against beyond parameters: reasoning, passthrough, input forms. */
function readRoutingDeclarations(fields: MappingReader, inputModalities: readonly string[]): RoutingDeclarations {
  return {
    reasoning: readReasoning(fields),
    passthrough: readPassthrough(fields),
    inputSources: readInputSources(fields, inputModalities),
    inputContainers: readInputContainers(fields, inputModalities),
    toolCallDispatch: fields.boolean('tool_call_dispatch', false),
  };
}

/** Modalities default to [text]; a list written out must name at least one. */
function readModalities(fields: MappingReader, key: 'input_modalities' | 'output_modalities'): string[] {
  const allowed = key === 'input_modalities' ? INPUT_MODALITIES : OUTPUT_MODALITIES;
  const read = fields.stringList(key, { allowed, fallback: ['text'] });
  const raw = fields.raw(key);
  if (Array.isArray(raw) && raw.length === 0) fields.problem(key, 'must name at least one modality');
  return read;
}

function readProviderRef(fields: MappingReader, providers: ReadonlyMap<string, ProviderEntry>): ProviderEntry | null {
  const slug = fields.string('provider');
  if (slug === '') return null;
  const provider = providers.get(slug);
  if (!provider) fields.problem('provider', `unknown provider "${slug}"`);
  return provider ?? null;
}
