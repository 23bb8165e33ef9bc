/**
 * The in-memory catalogue: what the YAML declares, parsed, validated and indexed once per load.
 * Prices are already exact units here (parsed by billing/money when the file loads).
 */
import type { Units } from '../billing/money.js';

export type UpstreamApi = 'openai' | 'anthropic' | 'cohere';

export interface ProviderEntry {
  slug: string;
  name: string;
  api: UpstreamApi;
  baseUrl: string;
  apiKeyEnv?: string;
  /** Stable identity that survives a slug rename (`id` in the file; the slug when not written). */
  id: string;
  dataPolicy: { training: boolean; retentionDays: number | null };
  /** `zdrStatus`: the operator's statement of how zero retention is assured; null when not stated. */
  compliance: { zdr: boolean; hipaa: boolean; zdrStatus: string | null };
  datacenters: string[];
  /** What `GET /providers` shows beside the name; null where the file states nothing. */
  links: ProviderLinks;
  /** Country code of the provider's headquarters; null when not stated. */
  headquarters: string | null;
}

export interface ProviderLinks {
  privacyPolicyUrl: string | null;
  termsOfServiceUrl: string | null;
  statusPageUrl: string | null;
}

/** Keys of the spec's pricing record (USD per stated unit). */
export const PRICE_KEYS = [
  'prompt',
  'completion',
  'input_cache_read',
  'input_cache_write',
  'input_cache_write_1h',
  'internal_reasoning',
  'request',
  'image',
  'image_output',
  'image_output_token',
  'image_megapixel',
  'video_second',
  'mesh_output',
  'audio_second',
  'audio_output',
  'character',
] as const;

export type PriceKey = (typeof PRICE_KEYS)[number];

/** Declared prices: the decimal string as written and its exact units. A key absent = undeclared. */
export type PriceTable = Partial<Record<PriceKey, { text: string; units: Units }>>;

export interface PriceOverride {
  prices: PriceTable;
  minPromptTokens?: number;
  utcStart?: string;
  utcEnd?: string;
  utcDays?: string[];
}

export interface EndpointPricing {
  prices: PriceTable;
  /** Fraction taken off list as an exact decimal, normalised ("0.10" → "0.1"; "0" when absent). */
  discount: string;
  overrides: PriceOverride[];
}

export interface EndpointEntry {
  /** Stable identity: `<provider slug>/<model id>[/<quantization>]`. */
  id: string;
  modelId: string;
  provider: ProviderEntry;
  upstreamModel: string;
  quantization: string | null;
  contextLength: number;
  maxCompletionTokens: number | null;
  /** The name under which the output ceiling is sent upstream. */
  maxTokensParameter: 'max_tokens' | 'max_completion_tokens';
  inputModalities: string[];
  outputModalities: string[];
  supportedParameters: ReadonlySet<string>;
  pricing: EndpointPricing;
  /** Whether the operator disabled it in the file. */
  disabled: boolean;
  /** Declared reasoning controls; null when the domain is unknown. */
  reasoning: ReasoningDomain | null;
  /** Passthrough parameters a request may set through `provider.options`, by name. */
  passthrough: ReadonlyMap<string, ParameterDescriptor>;
  /** Accepted sources per input modality (`url`, `base64`); a modality not listed accepts any. */
  inputSources: Readonly<Partial<Record<string, readonly InputSource[]>>>;
  /** Accepted containers per input modality (`png`, `wav`, …); a modality not listed accepts any. */
  inputContainers: Readonly<Partial<Record<string, readonly string[]>>>;
  /** Declares call-ready `tool_call_dispatch` events (still gated by a positive check). */
  toolCallDispatch: boolean;
  /** Declared speech limits; null where the endpoint produces no speech. */
  speechEnvelope: SpeechEnvelope | null;
  /** Speaks in a voice imitated from a caller's sample (`reference_inputs.audio` says which formats). */
  supportsVoiceCloning: boolean;
  /** Reference inputs it accepts (voice samples); null when none is declared. */
  referenceInputs: ReferenceInputs | null;
  /** Embedding widths a `dimensions` request may name; null when none is declared. */
  supportedDimensions: readonly number[] | null;
  /** Serves the text-completions wire (`POST /completions` with `prompt`) beside chat. */
  textCompletions: boolean;
  /** What only the public listing shows (tokenizer, envelopes, benchmarks, capacity, …). */
  listing: EndpointListingFacts;
}

/**
 * What an endpoint declares for the public listing; routing reads only the image envelope and the
 * render parameters (which pictures it renders). Records the listing shows as written keep the
 * spec's member names.
 */
export interface EndpointListingFacts {
  tokenizer: string | null;
  maxPromptTokens: number | null;
  supportsImplicitCaching: boolean;
  /** Languages of a transcription or speech endpoint; null when none are declared. */
  supportedLanguages: readonly string[] | null;
  /** Descriptors of the parameters a render takes, by output modality and name; null when none. */
  renderParameters: Readonly<Record<string, Readonly<Record<string, ParameterDescriptor>>>> | null;
  imageEnvelope: ImageEnvelope | null;
  videoEnvelope: VideoEnvelope | null;
  meshEnvelope: MeshEnvelope | null;
  benchmarks: readonly Benchmark[];
  capacity: Capacity | null;
}

export interface ImageEnvelope {
  sizes: readonly string[];
  formats: readonly string[];
  max_images: number | null;
}

export interface VideoEnvelope {
  frame: string;
  max_seconds: number;
  frame_step: number | null;
  audio: boolean;
}

export interface MeshEnvelope {
  max_faces: number;
  min_faces: number | null;
  texture: boolean;
}

export interface Benchmark {
  dataset: string;
  score: number;
  sample_count: number | null;
}

export interface Capacity {
  current: number;
  total: number;
  updated_at: string;
}

/** The spec's `speech_envelope`: voices, codecs and speed range an endpoint declares. */
export interface SpeechEnvelope {
  voices: readonly string[];
  /** Voice sent when a request names none; null leaves the choice to the endpoint. */
  defaultVoice: string | null;
  codecs: readonly string[];
  /** Both set or both null: null means no range was declared. */
  minSpeed: number | null;
  maxSpeed: number | null;
  /** Narrower upper bound of `max_new_tokens` than the route's 4,096; null when not narrowed. */
  maxNewTokens: number | null;
}

/** The spec's `reference_inputs`: reference audio formats, roles and size limit. */
/** What an endpoint takes to start from: a voice sample (cloning), reference pictures (image generation). */
export interface ReferenceInputs {
  audio: { formats: readonly string[]; roles: readonly string[]; maxBytes: number | null } | null;
  image: { formats: readonly string[]; roles: readonly string[]; maxBytes: number | null; maxCount: number | null } | null;
}

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** The spec's catalogue `reasoning` object. */
export interface ReasoningDomain {
  /** Strongest first; undefined when the levels are not declared. */
  supportedEfforts?: ReasoningEffort[];
  /** false means an off control exists. */
  mandatory?: boolean;
  defaultEffort?: ReasoningEffort;
  defaultEnabled?: boolean;
  /** A thinking budget (`reasoning.max_tokens`) is accepted. */
  supportsMaxTokens?: boolean;
}

export type InputSource = 'url' | 'base64';

/** How a passthrough value is judged: its JSON type, and a range or a set of values. */
export interface ParameterDescriptor {
  type: 'boolean' | 'integer' | 'number' | 'string';
  minimum?: number;
  maximum?: number;
  enum?: readonly (string | number)[];
}

export interface ModelEntry {
  id: string;
  name: string;
  /** Unix seconds. */
  created: number;
  family: string | null;
  /** The family's display name, as any model of the family names it; the id when none does. */
  familyName: string | null;
  description: string | null;
  expirationDate: string | null;
  /** Weights creator: `author` in the file, else the id's first segment. */
  author: string;
  tags: string[];
  /** Public weights repository id; null when the weights are unpublished. */
  hubId: string | null;
  /** The repository's own statements as last read; null without a reading. */
  hub: HubReading | null;
  /** Author-recommended sampling settings; empty when unknown. */
  defaultParameters: DefaultParameters;
  endpoints: EndpointEntry[];
}

export type DefaultParameters = Partial<Record<'temperature' | 'top_p' | 'top_k' | 'repetition_penalty', number>>;

/** A reading of the weights repository: `id`, `read_at`, and only the facts the repository states. */
export interface HubReading {
  id: string;
  read_at: string;
  availability?: string;
  languages?: string[];
  papers?: string[];
  datasets?: string[];
  weights_revision?: string;
  weights_updated_at?: string;
  downloads?: number;
  likes?: number;
  evaluations?: { dataset: string; metric: string; value: number }[];
}

export interface Catalogue {
  providers: ReadonlyMap<string, ProviderEntry>;
  models: ReadonlyMap<string, ModelEntry>;
  endpoints: ReadonlyMap<string, EndpointEntry>;
  /** Model ids by family id. */
  families: ReadonlyMap<string, string[]>;
  /** When this snapshot was loaded (ms since epoch). */
  loadedAt: number;
}

export interface CatalogueProblem {
  /** Path in the file, e.g. `models[3].endpoints[0].pricing.prompt`. */
  path: string;
  message: string;
}
