import { invalidRequest } from '../../core/errors.js';
import type { CoreRequest } from '../../core/request.js';
import { modelChain, readAttribution, readSessionHeader, type HeaderBag } from '../shared/request-headers.js';
import { readProviderPreferences } from '../shared/provider-preferences.js';
import { readCompressionAsk } from '../shared/compression-ask.js';
import type { MessagesRequestBody } from './schema.js';
import type { OutputConfig } from './option-schema.js';
import { decodeConversation } from './conversation.js';
import { fileFieldsOf } from '../shared/file-fields.js';
import { checkToolChoice } from '../shared/tool-choice-check.js';
import { decodeToolChoice, decodeTools, disablesParallelCalls } from './tools.js';

/** The name the structured-output schema travels under: the dialect's format names none. */
const STRUCTURED_OUTPUT_NAME = 'output';

/**
 * Messages wire → core request. The body has passed the schema (nulls already read as absent).
 * Session affinity comes only from the `X-Session-Id` header; `metadata`, `context_management` and
 * `cache_control` are accepted and ignored; `thinking` and `output_config.effort` are accepted and
 * never applied (reported false in `honoured`).
 */
export function decodeMessagesRequest(body: MessagesRequestBody, headers: HeaderBag): CoreRequest {
  if (body.stream_options?.include_tool_dispatch === true) {
    throw invalidRequest('stream_options.include_tool_dispatch', 'call-ready tool dispatch is a chat extension; the messages route does not offer it');
  }
  const request: CoreRequest = {
    models: modelChain(body.model, body.models),
    messages: decodeConversation(body.system, body.messages),
    stream: body.stream === true,
    maxTokens: body.max_tokens,
    parameters: {},
    softParameters: {},
    passthrough: {},
    attribution: readAttribution(headers),
  };
  if (body.temperature !== undefined) request.parameters.temperature = body.temperature;
  if (body.top_p !== undefined) request.parameters.top_p = body.top_p;
  if (body.stop_sequences !== undefined && body.stop_sequences.length > 0) request.parameters.stop = body.stop_sequences;
  if (body.top_k !== undefined) request.softParameters.top_k = body.top_k;
  if (body.tools && body.tools.length > 0) request.tools = decodeTools(body.tools);
  if (body.tool_choice !== undefined) request.toolChoice = decodeToolChoice(body.tool_choice);
  checkToolChoice(request.toolChoice, request.tools, { required: 'tool_choice.type', name: 'tool_choice.name' });
  const fileFields = fileFieldsOf(request.messages);
  if (fileFields) request.fileFields = fileFields;
  if (disablesParallelCalls(body.tool_choice)) request.softParameters.parallel_tool_calls = false;
  const session = readSessionHeader(headers);
  if (session !== undefined) request.sessionId = session;
  if (readCompressionAsk(body.transforms, body.plugins)) request.middleOut = true;
  readOutputFormat(body.output_config, request);
  const ignored = ignoredMembers(body);
  if (ignored.length > 0) request.ignored = ignored;
  const provider = readProviderPreferences(body.provider, body.route);
  if (provider) request.provider = provider;
  return request;
}

/** Judged members accepted and never applied, under the names the caller used. */
function ignoredMembers(body: MessagesRequestBody): string[] {
  const ignored: string[] = [];
  if (body.thinking !== undefined) ignored.push('thinking');
  if (body.output_config?.effort !== undefined) ignored.push('output_config.effort');
  return ignored;
}

/**
 * `output_config.format` `json_schema` asks for structured output: it travels as `response_format`
 * `json_schema` and routes only to endpoints declaring `structured_outputs`, as on chat.
 */
function readOutputFormat(config: OutputConfig | undefined, request: CoreRequest): void {
  const format = config?.format;
  if (format === undefined) return;
  request.passthrough.response_format = { type: 'json_schema', json_schema: { name: STRUCTURED_OUTPUT_NAME, schema: format.schema } };
  request.structuredOutputs = true;
}
