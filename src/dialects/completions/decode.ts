import type { CoreRequest } from '../../core/request.js';
import { modelChain, readAttribution, readSessionHeader, type HeaderBag } from '../shared/request-headers.js';
import { readProviderPreferences } from '../shared/provider-preferences.js';
import type { CompletionsRequestBody } from './schema.js';

/**
 * How each optional member travels upstream (see the chat parameter policy): `declared` members
 * need an endpoint declaring them; `echo`, `suffix` and `logprobs` also need an endpoint serving
 * the text-completions wire; `soft` members are sent only where declared.
 */
const COMPLETIONS_PARAMETER_POLICY = {
  temperature: 'declared',
  top_p: 'declared',
  frequency_penalty: 'declared',
  presence_penalty: 'declared',
  seed: 'declared',
  stop: 'declared',
  logprobs: 'declared',
  echo: 'declared',
  suffix: 'declared',
  top_k: 'soft',
  repetition_penalty: 'soft',
} as const satisfies Record<string, 'declared' | 'soft'>;

type CompletionsParameterName = keyof typeof COMPLETIONS_PARAMETER_POLICY;

/**
 * Text-completions wire → core request. The prompt travels as written to endpoints serving the
 * text-completions wire, and as the one user turn to the others (which is also what the hold counts).
 */
export function decodeCompletionsRequest(body: CompletionsRequestBody, headers: HeaderBag): CoreRequest {
  const request: CoreRequest = {
    models: modelChain(body.model, body.models),
    messages: [{ role: 'user', content: body.prompt }],
    prompt: body.prompt,
    stream: body.stream === true,
    parameters: {},
    softParameters: {},
    passthrough: {},
    attribution: readAttribution(headers),
  };
  for (const [name, policy] of Object.entries(COMPLETIONS_PARAMETER_POLICY)) {
    const value = body[name as CompletionsParameterName];
    if (value === undefined) continue;
    if (policy === 'declared') request.parameters[name] = value;
    else request.softParameters[name] = value;
  }
  if (body.max_tokens !== undefined) request.maxTokens = body.max_tokens;
  if (body.user !== undefined) request.user = body.user;
  const session = readSessionHeader(headers);
  if (session !== undefined) request.sessionId = session;
  const provider = readProviderPreferences(body.provider, body.route);
  if (provider) request.provider = provider;
  return request;
}
