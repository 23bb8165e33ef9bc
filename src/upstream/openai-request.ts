import type { CoreRequest } from '../core/request.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { UpstreamRequest } from './types.js';
import { inputAudioAsDataUrls } from './audio-rewrite.js';
import { bearerJsonHeaders } from './bearer-headers.js';

/** The OpenAI-compatible chat body an endpoint receives for a core request. */
export function buildOpenAiChatRequest(request: CoreRequest, attempt: PlannedAttempt): UpstreamRequest {
  const { endpoint } = attempt;
  const declared = endpoint.supportedParameters;
  const messages = attempt.messages ?? request.messages;
  const body: Record<string, unknown> = {
    model: endpoint.upstreamModel,
    messages: endpoint.inputSources.audio?.includes('base64') ? inputAudioAsDataUrls(messages) : messages,
    ...request.parameters,
    ...request.passthrough,
  };
  for (const [name, value] of Object.entries(request.softParameters)) {
    if (declared.has(name)) body[name] = value;
  }
  const effort = request.reasoning?.effort;
  if (effort !== undefined && (declared.has('reasoning') || declared.has('reasoning_effort'))) body.reasoning_effort = effort;
  if (request.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  if (attempt.ceiling !== undefined) body[endpoint.maxTokensParameter] = attempt.ceiling;
  if (request.tools) body.tools = request.tools;
  if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  if (request.user !== undefined) body.user = request.user;
  if (attempt.options) Object.assign(body, attempt.options);
  return { path: '/chat/completions', headers: upstreamHeaders(request, attempt), body };
}

function upstreamHeaders(request: CoreRequest, attempt: PlannedAttempt): Record<string, string> {
  const headers = bearerJsonHeaders(attempt.endpoint.provider);
  if (request.sessionId !== undefined) headers['x-session-id'] = request.sessionId;
  return headers;
}
