import { REASONING_EFFORTS } from '../../catalogue/types.js';
import { invalidRequest } from '../../core/errors.js';
import type { CoreRequest, ReasoningEffortName } from '../../core/request.js';
import { modelChain, readAttribution, readSessionHeader, type HeaderBag } from '../shared/request-headers.js';
import { readProviderPreferences } from '../shared/provider-preferences.js';
import type { ResponsesRequestBody } from './schema.js';
import { readInput } from './input-items.js';
import { readTools, ToolNames } from './tools.js';
import { fileFieldsOf } from '../shared/file-fields.js';

/** Members refused before inference even on a stream (rule 4); they answer in the shared envelope. */
export const STATEFUL_MEMBERS = ['previous_response_id', 'background'] as const;

/**
 * Responses wire → core request. The body has passed the schema (nulls already read as absent).
 * `store`, `include`, `metadata` and `user` are accepted and have no effect: nothing is retained
 * and nothing of them is forwarded.
 */
export function decodeResponsesRequest(body: ResponsesRequestBody, headers: HeaderBag): CoreRequest {
  refuseStatefulMembers(body);
  if (body.stream_options?.include_tool_dispatch === true) {
    throw invalidRequest('stream_options.include_tool_dispatch', 'call-ready tool dispatch is not offered on this route');
  }
  const names = new ToolNames();
  const { tools, toolChoice } = readTools(body, names);
  const messages = readInput(body.input, names);
  if (body.instructions !== undefined) messages.unshift({ role: 'system', content: body.instructions });
  const request: CoreRequest = {
    models: modelChain(body.model, body.models),
    messages,
    stream: body.stream === true,
    parameters: {},
    softParameters: {},
    passthrough: {},
    attribution: readAttribution(headers),
  };
  if (body.max_output_tokens !== undefined) request.maxTokens = body.max_output_tokens;
  if (body.temperature !== undefined) request.parameters.temperature = body.temperature;
  if (body.top_p !== undefined) request.parameters.top_p = body.top_p;
  if (body.parallel_tool_calls !== undefined) request.softParameters.parallel_tool_calls = body.parallel_tool_calls;
  if (tools) request.tools = tools;
  if (Object.keys(names.origins).length > 0) request.toolOrigins = names.origins;
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  const fileFields = fileFieldsOf(messages);
  if (fileFields) request.fileFields = fileFields;
  readTextFormat(body, request);
  const effort = body.reasoning?.effort;
  if (typeof effort === 'string' && (REASONING_EFFORTS as readonly string[]).includes(effort)) {
    request.reasoning = { effort: effort as ReasoningEffortName };
  }
  const session = body.prompt_cache_key ?? readSessionHeader(headers);
  if (session !== undefined) request.sessionId = session;
  const provider = readProviderPreferences(body.provider, body.route);
  if (provider) request.provider = provider;
  return request;
}

function refuseStatefulMembers(body: ResponsesRequestBody): void {
  if (body.previous_response_id !== undefined) {
    throw invalidRequest('previous_response_id', 'is not supported: nothing is stored, so send the full conversation in input');
  }
  if (body.background === true) throw invalidRequest('background', 'true is not supported: responses are not run in the background');
}

/**
 * `text.format`: `text` is the default; `json_object` asks for JSON where the endpoint declares
 * `response_format`; `json_schema` routes only to endpoints declaring `structured_outputs` (rule 3).
 */
function readTextFormat(body: ResponsesRequestBody, request: CoreRequest): void {
  const format = body.text?.format;
  if (!format) return;
  switch (format.type) {
    case 'text':
      return;
    case 'json_object':
      request.parameters.response_format = { type: 'json_object' };
      return;
    case 'json_schema': {
      if (typeof format.name !== 'string' || format.name === '') throw invalidRequest('text.format.name', 'is required for json_schema');
      const jsonSchema: Record<string, unknown> = { name: format.name, schema: format.schema ?? {} };
      if (typeof format.strict === 'boolean') jsonSchema.strict = format.strict;
      if (format.description !== undefined) jsonSchema.description = format.description;
      request.passthrough.response_format = { type: 'json_schema', json_schema: jsonSchema };
      request.structuredOutputs = true;
      return;
    }
    default:
      throw invalidRequest('text.format.type', `unsupported format type ${JSON.stringify(format.type)} (text, json_object or json_schema)`);
  }
}
