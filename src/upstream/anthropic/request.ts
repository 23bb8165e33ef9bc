import type { CoreRequest, ToolChoice, ToolDefinition } from '../../core/request.js';
import type { PlannedAttempt } from '../../core/plan.js';
import { singleToolCallAsked } from '../../core/parallel-tool-calls.js';
import type { UpstreamRequest } from '../types.js';
import { toAnthropicConversation } from './messages.js';
import { thinkingConfig } from './thinking.js';
import { isPlainObject } from '../json-guards.js';

/** The Messages API version every request names. */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * The Anthropic Messages body an endpoint receives for a core request. The wire requires an
 * output ceiling: the planned one, else all the endpoint can emit beside the prompt (what the hold
 * covers), sent under the name the endpoint declares. Settings with no counterpart on this wire
 * (seed, penalties, logit bias, log probabilities) are not sent.
 */
export function buildAnthropicRequest(request: CoreRequest, attempt: PlannedAttempt): UpstreamRequest {
  const { endpoint } = attempt;
  const maxTokens = attempt.heldCeiling;
  const conversation = toAnthropicConversation(attempt.messages ?? request.messages);
  const body: Record<string, unknown> = { model: endpoint.upstreamModel, [endpoint.maxTokensParameter]: maxTokens };
  if (conversation.system) body.system = conversation.system;
  body.messages = conversation.messages;
  if (request.tools) body.tools = request.tools.map(anthropicTool);
  const toolChoice = anthropicToolChoice(request.toolChoice, singleToolCallAsked(request) && (request.tools?.length ?? 0) > 0);
  if (toolChoice) body.tool_choice = toolChoice;
  Object.assign(body, samplingMembers(request, endpoint.supportedParameters));
  const declared = endpoint.supportedParameters;
  if (declared.has('reasoning') || declared.has('reasoning_effort')) {
    const thinking = thinkingConfig(request.reasoning, maxTokens, endpoint.reasoning);
    if (thinking) body.thinking = thinking;
  }
  const format = outputFormat(request.parameters.response_format ?? request.passthrough.response_format);
  if (format) body.output_config = { format };
  if (request.user !== undefined) body.metadata = { user_id: request.user };
  if (request.stream) body.stream = true;
  if (attempt.options) Object.assign(body, attempt.options);
  return { path: '/messages', headers: anthropicHeaders(request, attempt), body };
}

function anthropicTool(tool: ToolDefinition): Record<string, unknown> {
  const { name, description, parameters, strict } = tool.function;
  const wire: Record<string, unknown> = { name };
  if (description !== undefined) wire.description = description;
  wire.input_schema = isPlainObject(parameters) ? parameters : { type: 'object', properties: {} };
  if (strict !== undefined) wire.strict = strict;
  return wire;
}

/**
 * `required` is `any`; a named function is `tool`; an ask for one call per turn, from any dialect,
 * disables parallel use. That ask is part of `tool_choice` on this wire, which every endpoint takes,
 * so it is sent whether or not the endpoint declares `parallel_tool_calls`; with no tools it has
 * nothing to apply to and is not sent (the wire refuses a `tool_choice` without tools).
 */
function anthropicToolChoice(choice: ToolChoice | undefined, singleCall: boolean): Record<string, unknown> | undefined {
  if (choice === 'none') return { type: 'none' };
  const wire: Record<string, unknown> = choice === 'required' ? { type: 'any' }
    : typeof choice === 'object' ? { type: 'tool', name: choice.function.name }
      : { type: 'auto' };
  if (singleCall) wire.disable_parallel_tool_use = true;
  return choice !== undefined || singleCall ? wire : undefined;
}

function samplingMembers(request: CoreRequest, declared: ReadonlySet<string>): Record<string, unknown> {
  const { parameters, softParameters } = request;
  const members: Record<string, unknown> = {};
  if (parameters.temperature !== undefined) members.temperature = parameters.temperature;
  if (parameters.top_p !== undefined) members.top_p = parameters.top_p;
  const topK = parameters.top_k ?? (declared.has('top_k') ? softParameters.top_k : undefined);
  if (typeof topK === 'number' && topK >= 0) members.top_k = topK;
  const stop = parameters.stop;
  if (typeof stop === 'string') members.stop_sequences = [stop];
  else if (Array.isArray(stop) && stop.length > 0) members.stop_sequences = stop;
  return members;
}

/**
 * `response_format` `json_schema` (a declared chat parameter, or passed through by the responses and
 * messages dialects) as the wire's structured output format; other formats have none.
 */
function outputFormat(responseFormat: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(responseFormat) || responseFormat.type !== 'json_schema' || !isPlainObject(responseFormat.json_schema)) return undefined;
  const schema = responseFormat.json_schema.schema;
  return isPlainObject(schema) ? { type: 'json_schema', schema } : undefined;
}

function anthropicHeaders(request: CoreRequest, attempt: PlannedAttempt): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION };
  const credentialEnv = attempt.endpoint.provider.apiKeyEnv;
  const credential = credentialEnv ? process.env[credentialEnv] : undefined;
  if (credential) headers['x-api-key'] = credential;
  if (request.sessionId !== undefined) headers['x-session-id'] = request.sessionId;
  return headers;
}
