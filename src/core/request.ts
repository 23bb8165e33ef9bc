/**
 * The request every dialect decodes into. Messages keep the OpenAI-compatible chat shape,
 * which is the widest common model of a conversation; other dialects translate into it.
 */
import type { ReasoningEffort } from '../catalogue/types.js';
import type { SpeechAsk } from './speech.js';
import type { OperationAsk } from './operation.js';

export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } }
  | { type: 'audio_url'; audio_url: { url: string } }
  | { type: 'video_url'; video_url: { url: string } }
  | { type: 'file'; file: { filename?: string; file_data?: string; file_id?: string } };

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface CoreMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content?: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  reasoning?: string;
  reasoning_details?: unknown[];
  refusal?: string;
}

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown; strict?: boolean };
}

/** A function the caller declared inside a namespace (responses dialect), sent upstream under a flat name. */
export interface ToolOrigin {
  namespace: string;
  name: string;
}

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export type SortBy = 'price' | 'throughput' | 'latency';

/** `model`: endpoints sorted within each model, models tried in order; `none`: sorted across all models. */
export type SortPartition = 'model' | 'none';

export interface ReasoningRequest {
  effort?: ReasoningEffortName;
  maxTokens?: number;
  exclude?: boolean;
  enabled?: boolean;
}

export type ReasoningEffortName = ReasoningEffort;

export interface ProviderPreferences {
  only?: string[];
  ignore?: string[];
  order?: string[];
  allowFallbacks?: boolean;
  requireParameters?: boolean;
  dataCollection?: 'allow' | 'deny';
  zdr?: boolean;
  quantizations?: string[];
  sort?: SortBy;
  partition?: SortPartition;
  /** USD per million tokens (prompt, completion), per request, per image: exact decimal strings. */
  maxPrice?: Partial<Record<'prompt' | 'completion' | 'request' | 'image', string>>;
  options?: Record<string, Record<string, unknown>>;
}

export interface Attribution {
  title?: string;
  referer?: string;
}

export interface CoreRequest {
  /** The asked model first, then the fallbacks of `models`, in order, without duplicates. */
  models: string[];
  messages: CoreMessage[];
  stream: boolean;
  /** The output ceiling the caller asked for (max_tokens / max_completion_tokens). */
  maxTokens?: number;
  /**
   * Optional settings the caller set explicitly, under their upstream names
   * (temperature, top_p, stop, seed, ...). Each needs an endpoint declaration.
   */
  parameters: Record<string, unknown>;
  /** Settings sent only where the endpoint declares them (top_k, min_p, repetition_penalty, …). */
  softParameters: Record<string, unknown>;
  /** Members every eligible endpoint receives as they are (modalities, audio, image_config). */
  passthrough: Record<string, unknown>;
  reasoning?: ReasoningRequest;
  /** Routing marker: only endpoints declaring structured outputs. */
  structuredOutputs?: boolean;
  /** Output modalities beyond text that the answer must be able to carry. */
  outputModalities?: string[];
  /** Middle-out compression was asked for (`transforms` or the compression plugin). */
  middleOut?: boolean;
  /** Call-ready `tool_call_dispatch` events were asked for. */
  toolDispatch?: boolean;
  /** Members the caller set that are accepted and never forwarded (reported false in `honoured`). */
  ignored?: string[];
  tools?: ToolDefinition[];
  /** Flat upstream tool name → the namespace and name the caller declared it under. */
  toolOrigins?: Record<string, ToolOrigin>;
  toolChoice?: ToolChoice;
  /**
   * Where the request wrote each `file` part's `file_id` / `file_data` holder, keyed `i.j` by its
   * place in `messages`; absent where that is chat's `messages[i].content[j].file`.
   */
  fileFields?: Record<string, string>;
  /** A text-completion prompt, as written; `messages` holds it as the one user turn. */
  prompt?: string;
  provider?: ProviderPreferences;
  sessionId?: string;
  user?: string;
  metadata?: Record<string, unknown>;
  attribution: Attribution;
  /** Set on a text-to-speech request: only speech endpoints declaring what it asks are eligible. */
  speech?: SpeechAsk;
  /** Set on a non-conversation request (embeddings, rerank): only endpoints serving it are eligible. */
  operation?: OperationAsk;
}
