import type { EndpointEntry, ModelEntry } from '../catalogue/types.js';
import { speechEndpointsOf } from '../catalogue/listing/speech-models.js';
import { invalidRequest } from './errors.js';

/** The voice to speak, and the name for `X-Service-Voice` when the service chose it. */
export interface ResolvedVoice {
  voice?: string;
  serviceVoice?: string;
}

/**
 * Voice resolution (spec 01, POST /audio/speech):
 * 1. an endpoint of the model declares the named voice: it is spoken as asked;
 * 2. none does, and between them the endpoints offer exactly one voice (an endpoint offers `default`
 *    when it declares it, else its only voice when it declares exactly one): that voice speaks and
 *    is named in `X-Service-Voice`;
 * 3. none does and several or no voices are offered: 400 listing the declared voices in
 *    `metadata.declared_voices`;
 * 4. no voice named (or a sample given, which overrides it): nothing to resolve, no header.
 * A model with no speech endpoint resolves nothing: routing refuses it.
 */
export function resolveVoice(model: ModelEntry, asked: string | undefined, hasSample: boolean): ResolvedVoice {
  if (asked === undefined || hasSample) return {};
  const endpoints = speechEndpointsOf(model.endpoints);
  if (endpoints.length === 0) return {};
  if (endpoints.some((endpoint) => endpoint.speechEnvelope?.voices.includes(asked))) return { voice: asked };
  const offered = new Set(endpoints.map(offeredVoice).filter((voice): voice is string => voice !== undefined));
  const [only] = offered;
  if (offered.size === 1 && only !== undefined) return { voice: only, serviceVoice: only };
  const declared = [...new Set(endpoints.flatMap((endpoint) => endpoint.speechEnvelope?.voices ?? []))];
  const error = invalidRequest('voice', `${model.id} declares no voice ${JSON.stringify(asked)}; declared voices: ${declared.join(', ') || 'none'}`);
  error.metadata.declared_voices = declared;
  throw error;
}

function offeredVoice(endpoint: EndpointEntry): string | undefined {
  const voices = endpoint.speechEnvelope?.voices ?? [];
  if (voices.includes('default')) return 'default';
  return voices.length === 1 ? voices[0] : undefined;
}
