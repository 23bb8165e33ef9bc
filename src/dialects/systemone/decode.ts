import type { CoreRequest } from '../../core/request.js';
import { readAttribution, readSessionHeader, type HeaderBag } from '../shared/request-headers.js';
import { readProviderPreferences } from '../shared/provider-preferences.js';
import { questionMessages } from './prompt.js';
import { readQuestions, renderContent, type Question } from './questions.js';
import type { SystemOneRequestBody } from './schema.js';

/** Output ceiling of each question's call: the label, with room for a leading space or newline. */
export const DECISION_CEILING = 4;

/** Alternatives asked per answer token where the endpoint declares `top_logprobs` (the wire maximum). */
const TOP_LOGPROBS = 20;

/** A typed-decision request: its questions, each with the core request that asks it. */
export interface DecisionCall {
  questions: { question: Question; request: CoreRequest }[];
}

/**
 * Typed-decision wire → one core request per question over the same model and preferences.
 * Log-probabilities (and temperature 0) are asked only of endpoints declaring them; `trace` is
 * accepted and never forwarded.
 */
export function decodeSystemOneRequest(body: SystemOneRequestBody, headers: HeaderBag): DecisionCall {
  const state = renderContent(body.state);
  const shared = sharedRequest(body, headers);
  const questions = readQuestions(body.questions).map((question) => ({
    question,
    request: { ...shared, messages: questionMessages(state, question) },
  }));
  return { questions };
}

function sharedRequest(body: SystemOneRequestBody, headers: HeaderBag): Omit<CoreRequest, 'messages'> {
  const request: Omit<CoreRequest, 'messages'> = {
    models: [body.model],
    stream: false,
    maxTokens: DECISION_CEILING,
    parameters: {},
    softParameters: { temperature: 0, logprobs: true, top_logprobs: TOP_LOGPROBS },
    passthrough: {},
    attribution: readAttribution(headers),
  };
  if (body.user !== undefined) request.user = body.user;
  const session = body.session_id ?? readSessionHeader(headers);
  if (session !== undefined) request.sessionId = session;
  const provider = readProviderPreferences(body.provider);
  if (provider) request.provider = provider;
  return request;
}
