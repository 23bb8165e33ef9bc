import { invalidRequest } from '../../core/errors.js';
import type { CoreMessage, CoreRequest, ReasoningEffortName, ToolChoice, ToolDefinition } from '../../core/request.js';
import type { ChatRequestBody } from './schema.js';
import { modelChain, readAttribution, readSessionHeader, type HeaderBag } from '../shared/request-headers.js';
import { readProviderPreferences } from '../shared/provider-preferences.js';
import { readCompressionAsk } from '../shared/compression-ask.js';
import { checkToolChoice } from '../shared/tool-choice-check.js';
import { CHAT_PARAMETER_POLICY, type ChatParameterName } from './parameter-policy.js';
import { checkLogitBias } from './logit-bias.js';

/** Judged members the service accepts and never forwards (reported false in `honoured`). */
const IGNORED_MEMBERS = ['top_a', 'verbosity'] as const;

/** Chat wire → core request. The body has passed the schema (nulls already read as absent). */
export function decodeChatRequest(body: ChatRequestBody, headers: HeaderBag): CoreRequest {
  if (body.store === true) throw invalidRequest('store', 'true is not supported: nothing is stored (send false or omit it)');
  checkLogitBias(body.logit_bias);
  const request: CoreRequest = {
    models: modelChain(body.model, body.models),
    messages: body.messages as CoreMessage[],
    stream: body.stream === true,
    parameters: {},
    softParameters: {},
    passthrough: {},
    attribution: readAttribution(headers),
  };
  sortParameters(body, request);
  const ceiling = smallest(body.max_tokens, body.max_completion_tokens);
  if (ceiling !== undefined) request.maxTokens = ceiling;
  if (body.tools && body.tools.length > 0) request.tools = body.tools as ToolDefinition[];
  if (body.tool_choice !== undefined) request.toolChoice = body.tool_choice as ToolChoice;
  checkToolChoice(request.toolChoice, request.tools, { required: 'tool_choice', name: 'tool_choice.function.name' });
  if (body.user !== undefined) request.user = body.user;
  if (body.metadata !== undefined) request.metadata = body.metadata;
  const session = body.session_id ?? body.prompt_cache_key ?? readSessionHeader(headers);
  if (session !== undefined) request.sessionId = session;
  readReasoning(body, request);
  if (body.structured_outputs === true || body.response_format?.type === 'json_schema') request.structuredOutputs = true;
  const outputs = (body.modalities ?? []).filter((modality) => modality !== 'text');
  if (outputs.length > 0) request.outputModalities = outputs;
  if (outputs.includes('audio') && body.audio === undefined) {
    throw invalidRequest('audio', 'required when modalities names audio: send voice and format (there are no defaults)');
  }
  if (readCompressionAsk(body.transforms, body.plugins)) request.middleOut = true;
  if (body.stream_options?.include_tool_dispatch === true && request.stream && request.tools) request.toolDispatch = true;
  const ignored = IGNORED_MEMBERS.filter((name) => body[name] !== undefined);
  if (ignored.length > 0) request.ignored = ignored;
  const provider = readProviderPreferences(body.provider, body.route);
  if (provider) request.provider = provider;
  return request;
}

/** The parameter policy as a list, made once: it is walked on every request. */
const PARAMETER_POLICIES = Object.entries(CHAT_PARAMETER_POLICY);

function sortParameters(body: ChatRequestBody, request: CoreRequest): void {
  for (const [name, policy] of PARAMETER_POLICIES) {
    const value = body[name as ChatParameterName];
    if (value === undefined) continue;
    if (policy === 'declared') request.parameters[name] = value;
    else if (policy === 'soft') request.softParameters[name] = value;
    else request.passthrough[name] = value;
  }
}

/** `reasoning_effort` is shorthand for `reasoning.effort` and wins when both are sent. */
function readReasoning(body: ChatRequestBody, request: CoreRequest): void {
  const reasoning = { ...body.reasoning };
  if (body.reasoning_effort !== undefined) reasoning.effort = body.reasoning_effort;
  if (Object.keys(reasoning).length === 0) return;
  request.reasoning = {};
  if (reasoning.effort !== undefined) request.reasoning.effort = reasoning.effort as ReasoningEffortName;
  if (reasoning.max_tokens !== undefined) request.reasoning.maxTokens = reasoning.max_tokens;
  if (reasoning.exclude !== undefined) request.reasoning.exclude = reasoning.exclude;
  if (reasoning.enabled !== undefined) request.reasoning.enabled = reasoning.enabled;
}

function smallest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
