import type { CoreRequest } from '../../core/request.js';
import type { PlannedAttempt } from '../../core/plan.js';
import { bearerJsonHeaders } from '../bearer-headers.js';
import { decodeOpenAiHttpError } from './error.js';
import type { SpeechAdapter, UpstreamRequest } from '../types.js';

/**
 * OpenAI-compatible `POST /audio/speech`: the audio comes back as the body. Settings an endpoint
 * does not declare are never sent (routing already kept such requests away where they matter); a
 * voice sample travels as one `input_references` entry, as the route received it.
 */
export function buildOpenAiSpeechRequest(request: CoreRequest, attempt: PlannedAttempt): UpstreamRequest {
  const { endpoint } = attempt;
  const ask = request.speech;
  if (!ask) throw new Error('not a speech request');
  const declared = endpoint.supportedParameters;
  const body: Record<string, unknown> = { model: endpoint.upstreamModel, input: ask.input, response_format: ask.format };
  const voice = ask.sample ? undefined : ask.voice ?? endpoint.speechEnvelope?.defaultVoice ?? undefined;
  if (voice !== undefined) body.voice = voice;
  if (ask.speed !== undefined) body.speed = ask.speed;
  if (ask.seed !== undefined) body.seed = ask.seed;
  if (ask.maxNewTokens !== undefined) body.max_new_tokens = ask.maxNewTokens;
  if (ask.instructions !== undefined && declared.has('instructions')) body.instructions = ask.instructions;
  if (ask.sample) {
    const reference: Record<string, unknown> = { type: 'input_audio', input_audio: { data: ask.sample.data, format: ask.sample.format } };
    if (ask.sample.transcript !== undefined) reference.transcript = ask.sample.transcript;
    body.input_references = [reference];
  }
  if (request.user !== undefined) body.user = request.user;
  if (attempt.options) Object.assign(body, attempt.options);
  const headers = bearerJsonHeaders(endpoint.provider);
  if (request.sessionId !== undefined) headers['x-session-id'] = request.sessionId;
  return { path: '/audio/speech', headers, body };
}

export const openAiSpeechAdapter: SpeechAdapter = {
  buildRequest: buildOpenAiSpeechRequest,
  decodeError: decodeOpenAiHttpError,
};
