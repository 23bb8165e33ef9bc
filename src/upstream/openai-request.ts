import type { CoreRequest } from '../core/request.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { UpstreamRequest } from './types.js';

/** The OpenAI-compatible chat body an endpoint receives for a core request. */
export function buildOpenAiChatRequest(request: CoreRequest, attempt: PlannedAttempt): UpstreamRequest {
  const { endpoint } = attempt;
  const body: Record<string, unknown> = {
    model: endpoint.upstreamModel,
    messages: request.messages,
    ...request.parameters,
  };
  if (request.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  if (attempt.ceiling !== undefined) body[endpoint.maxTokensParameter] = attempt.ceiling;
  if (request.tools) body.tools = request.tools;
  if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  if (request.user !== undefined) body.user = request.user;

  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const credential = endpoint.provider.apiKeyEnv ? process.env[endpoint.provider.apiKeyEnv] : undefined;
  if (credential) headers.authorization = `Bearer ${credential}`;
  if (request.sessionId !== undefined) headers['x-session-id'] = request.sessionId;
  return { path: '/chat/completions', headers, body };
}
