import type { MappingReader } from './mapping-reader.js';
import type { ProviderEntry, UpstreamApi } from './types.js';

/**
 * Outputs served on a route of their own are the spec's output modalities `embeddings`, `rerank`
 * and `speech`, with `transcription`; each needs a wire format that carries it: embeddings over an
 * OpenAI-compatible `/embeddings`, rerank over a Cohere-style `/v2/rerank` or an OpenAI-compatible
 * server's `/rerank` (vLLM, Jina style), speech and transcripts over an OpenAI-compatible
 * `/audio/speech` and `/audio/transcriptions`.
 */
const OPERATION_APIS: Readonly<Record<'embeddings' | 'rerank' | 'speech' | 'transcription', readonly UpstreamApi[]>> = {
  embeddings: ['openai'],
  rerank: ['openai', 'cohere'],
  speech: ['openai'],
  transcription: ['openai'],
};

/** What an endpoint declares about the operations it serves. */
export interface OperationDeclarations {
  /** Widths a `dimensions` request may name; null when none is declared. */
  supportedDimensions: number[] | null;
}

/**
 * `supported_dimensions` (embeddings endpoints only: positive integers, no repeats), and checks that
 * the provider's wire format can serve each operation the endpoint declares and that a transcription
 * endpoint takes audio.
 */
export function readOperationDeclarations(
  fields: MappingReader,
  modalities: { input: readonly string[]; output: readonly string[] },
  provider: ProviderEntry | null,
): OperationDeclarations {
  const outputModalities = modalities.output;
  if (provider) checkOperationApis(fields, outputModalities, provider);
  if (outputModalities.includes('transcription') && !modalities.input.includes('audio')) {
    fields.problem('input_modalities', 'a transcription endpoint takes audio: list audio among input_modalities');
  }
  if (!fields.has('supported_dimensions')) return { supportedDimensions: null };
  if (!outputModalities.includes('embeddings')) {
    fields.problem('supported_dimensions', 'only for endpoints whose output_modalities include embeddings');
  }
  return { supportedDimensions: readWidths(fields) };
}

/** Wire formats that carry nothing but operations: every output they declare must be one of these. */
const OPERATION_ONLY_APIS: Readonly<Partial<Record<UpstreamApi, readonly string[]>>> = { cohere: ['rerank'] };

function checkOperationApis(fields: MappingReader, outputModalities: readonly string[], provider: ProviderEntry): void {
  const only = OPERATION_ONLY_APIS[provider.api];
  const beyond = only ? outputModalities.filter((output) => !only.includes(output)) : [];
  if (only && beyond.length > 0) {
    fields.problem('output_modalities', `the ${provider.api} wire of provider "${provider.slug}" serves only ${only.join(', ')} (not ${beyond.join(', ')})`);
    return;
  }
  for (const [operation, apis] of Object.entries(OPERATION_APIS)) {
    if (outputModalities.includes(operation) && !apis.includes(provider.api)) {
      fields.problem('output_modalities', `${operation} is not served over the ${provider.api} wire format of provider "${provider.slug}" (use ${apis.join(' or ')})`);
    }
  }
}

function readWidths(fields: MappingReader): number[] {
  const items = fields.list('supported_dimensions');
  if (Array.isArray(fields.raw('supported_dimensions')) && items.length === 0) {
    fields.problem('supported_dimensions', 'must name at least one width');
  }
  const widths: number[] = [];
  for (const item of items) {
    if (typeof item.value !== 'number' || !Number.isSafeInteger(item.value) || item.value < 1) {
      fields.problems.add(item.path, 'must be a positive integer');
    } else if (widths.includes(item.value)) {
      fields.problems.add(item.path, `duplicate ${item.value}`);
    } else {
      widths.push(item.value);
    }
  }
  return widths;
}
