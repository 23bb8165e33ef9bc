/**
 * The request every dialect decodes into. Messages keep the OpenAI-compatible chat shape,
 * which is the widest common model of a conversation; other dialects translate into it.
 */

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

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export interface ProviderPreferences {
  only?: string[];
  ignore?: string[];
  order?: string[];
  allowFallbacks?: boolean;
  requireParameters?: boolean;
  dataCollection?: 'allow' | 'deny';
  zdr?: boolean;
  quantizations?: string[];
  sort?: 'price' | 'throughput' | 'latency';
  maxPrice?: Record<string, string>;
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
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  provider?: ProviderPreferences;
  sessionId?: string;
  user?: string;
  metadata?: Record<string, unknown>;
  attribution: Attribution;
}
