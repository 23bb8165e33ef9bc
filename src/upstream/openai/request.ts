import type { CoreRequest } from '../../core/request.js';
import type { PlannedAttempt } from '../../core/plan.js';
import type { UpstreamRequest } from '../types.js';
import { inputAudioAsDataUrls } from './audio-rewrite.js';
import { bearerJsonHeaders } from '../bearer-headers.js';

/** The body an OpenAI-compatible endpoint receives: the text-completions wire for a text prompt where it serves that wire, else chat. */
export function buildOpenAiRequest(request: CoreRequest, attempt: PlannedAttempt): UpstreamRequest {
  return request.prompt !== undefined && attempt.endpoint.textCompletions
    ? buildOpenAiTextRequest(request, attempt)
    : buildOpenAiChatRequest(request, attempt);
}

/** The OpenAI-compatible chat body an endpoint receives for a core request. */
export function buildOpenAiChatRequest(request: CoreRequest, attempt: PlannedAttempt): UpstreamRequest {
  const { endpoint } = attempt;
  const messages = attempt.messages ?? request.messages;
  const body: Record<string, unknown> = {
    model: endpoint.upstreamModel,
    messages: endpoint.inputSources.audio?.includes('base64') ? inputAudioAsDataUrls(messages) : messages,
  };
  if (request.tools) body.tools = request.tools;
  if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  addSettingMembers(body, request, attempt);
  return { path: '/chat/completions', headers: upstreamHeaders(request, attempt), body };
}

/** The text-completions body (`POST /completions`): the prompt as written, and the same settings. */
export function buildOpenAiTextRequest(request: CoreRequest, attempt: PlannedAttempt): UpstreamRequest {
  const body: Record<string, unknown> = { model: attempt.endpoint.upstreamModel, prompt: request.prompt ?? '' };
  addSettingMembers(body, request, attempt);
  return { path: '/completions', headers: upstreamHeaders(request, attempt), body };
}

/**
 * Adds the settings every wire carries to `body`: declared and passthrough members, the effort, the
 * stream, the ceiling, the user, `provider.options`. Written into the body itself: an object of
 * their own, spread into it, cost more than the rest of the body.
 */
function addSettingMembers(body: Record<string, unknown>, request: CoreRequest, attempt: PlannedAttempt): void {
  const { endpoint } = attempt;
  const declared = endpoint.supportedParameters;
  Object.assign(body, request.parameters, request.passthrough);
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
  if (request.user !== undefined) body.user = request.user;
  if (attempt.options) Object.assign(body, attempt.options);
}

function upstreamHeaders(request: CoreRequest, attempt: PlannedAttempt): Record<string, string> {
  const headers = bearerJsonHeaders(attempt.endpoint.provider);
  if (request.sessionId !== undefined) headers['x-session-id'] = request.sessionId;
  return headers;
}
