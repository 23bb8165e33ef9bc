import type { CoreMessage, CoreRequest, ProviderPreferences, ToolChoice, ToolDefinition } from '../../core/request.js';
import type { ChatRequestBody } from './schema.js';
import { modelChain, readAttribution, readSessionHeader, type HeaderBag } from '../shared/request-headers.js';
import { readProviderPreferences } from '../shared/provider-preferences.js';

/** Optional settings forwarded under their own names, each needing the endpoint's declaration. */
const FORWARDED_PARAMETERS = [
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'seed',
  'stop',
] as const;

/** Chat wire → core request. The body has passed the schema (nulls already read as absent). */
export function decodeChatRequest(body: ChatRequestBody, headers: HeaderBag): CoreRequest {
  const parameters: Record<string, unknown> = {};
  for (const name of FORWARDED_PARAMETERS) {
    if (body[name] !== undefined) parameters[name] = body[name];
  }
  const request: CoreRequest = {
    models: modelChain(body.model, body.models),
    messages: body.messages as CoreMessage[],
    stream: body.stream === true,
    parameters,
    attribution: readAttribution(headers),
  };
  const ceiling = smallest(body.max_tokens, body.max_completion_tokens);
  if (ceiling !== undefined) request.maxTokens = ceiling;
  if (body.tools) request.tools = body.tools as ToolDefinition[];
  if (body.tool_choice !== undefined) request.toolChoice = body.tool_choice as ToolChoice;
  if (body.user !== undefined) request.user = body.user;
  if (body.metadata !== undefined) request.metadata = body.metadata;
  const session = body.session_id ?? body.prompt_cache_key ?? readSessionHeader(headers);
  if (session !== undefined) request.sessionId = session;
  const provider: ProviderPreferences | undefined = body.provider ? readProviderPreferences(body.provider) : undefined;
  if (provider) request.provider = provider;
  return request;
}

function smallest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
