import type { CoreRequest } from '../../core/request.js';
import { readProviderPreferences, type ProviderBody } from './provider-preferences.js';
import { readAttribution, type HeaderBag } from './request-headers.js';

/** The members every request without a conversation (embeddings, rerank, speech) shares. */
export interface SingleCallBody {
  model: string;
  user?: string;
  provider?: ProviderBody;
}

/**
 * The routing request of a call that is not a conversation: one model, no messages, no sampling
 * parameters; attribution from the headers, `user` and `provider` preferences from the body.
 */
export function singleCallRequest(body: SingleCallBody, headers: HeaderBag, fields: Partial<CoreRequest>): CoreRequest {
  const request: CoreRequest = {
    models: [body.model],
    messages: [],
    stream: false,
    parameters: {},
    softParameters: {},
    passthrough: {},
    attribution: readAttribution(headers),
    ...fields,
  };
  if (body.user !== undefined) request.user = body.user;
  const provider = readProviderPreferences(body.provider);
  if (provider) request.provider = provider;
  return request;
}
