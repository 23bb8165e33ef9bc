import type { EndpointEntry } from '../../catalogue/types.js';
import { GatewayError, invalidRequest } from '../errors.js';
import type { OperationAsk, OperationKind } from '../operation.js';
import { speaksLanguage } from '../transcription.js';
import type { EligibilityRule } from './eligibility-rule.js';
import type { ResolvedModel } from './model-resolution.js';

/** Outputs served on a route of their own, never as a conversation's reply. */
const NON_CONVERSATION_OUTPUTS: readonly string[] = ['embeddings', 'rerank', 'speech', 'transcription'] satisfies readonly (OperationKind | 'speech')[];

/**
 * An operation (embeddings, rerank) is served only by endpoints declaring it among their outputs;
 * a conversation is never sent to an endpoint whose only outputs are operations or speech.
 */
const servesOperation: EligibilityRule = ({ endpoint, input }) => {
  const { operation, speech } = input.request;
  if (operation) return endpoint.outputModalities.includes(operation.kind) ? null : `does not serve ${operation.kind}`;
  if (speech || !endpoint.outputModalities.every((output) => NON_CONVERSATION_OUTPUTS.includes(output))) return null;
  return `serves only ${endpoint.outputModalities.join(', ')}`;
};

/** A `dimensions` request goes only to endpoints declaring that width. */
const declaresWidth: EligibilityRule = ({ endpoint, input }) => {
  const operation = input.request.operation;
  if (operation?.kind !== 'embeddings' || operation.dimensions === undefined) return null;
  return endpoint.supportedDimensions?.includes(operation.dimensions) ? null : `does not declare ${operation.dimensions} dimensions`;
};

/**
 * A transcription goes only to endpoints that declare the language it names (where they declare
 * languages at all) and, when it asks for captions or timestamps, that answer with timed segments
 * (declaring `timestamp_granularities`). The recording's container is judged with every input part.
 */
const transcribes: EligibilityRule = ({ endpoint, input }) => {
  const operation = input.request.operation;
  if (operation?.kind !== 'transcription') return null;
  const languages = endpoint.listing.supportedLanguages;
  if (operation.language !== undefined && languages !== null && !speaksLanguage(languages, operation.language)) {
    return `does not transcribe language ${operation.language}`;
  }
  if (operation.timed && !endpoint.supportedParameters.has('timestamp_granularities')) return 'does not answer with timed segments';
  return null;
};

export const OPERATION_RULES: readonly EligibilityRule[] = [servesOperation, declaresWidth, transcribes];

/**
 * Model-level refusals of an operation, before any endpoint is judged or any engine reached:
 * 502 when no endpoint of the asked models serves it at all; 400 naming `dimensions` when no live
 * endpoint declares that width; 400 naming the part when its modality is declared by none of them
 * (text is never judged); 400 naming `language` when every transcription endpoint declares its
 * languages and none declares that one.
 */
export function checkOperation(operation: OperationAsk | undefined, resolved: readonly ResolvedModel[]): void {
  if (!operation) return;
  const serving = resolved.flatMap(({ model }) =>
    model.endpoints.filter((endpoint) => !endpoint.disabled && endpoint.outputModalities.includes(operation.kind)));
  const asked = resolved.map(({ askedId }) => askedId).join(', ');
  if (serving.length === 0) {
    throw new GatewayError('provider_unavailable', `${asked}: no endpoint serves ${operation.kind}`, { metadata: { operation: operation.kind } });
  }
  if (operation.kind === 'transcription') {
    if (operation.seconds === undefined) throw new Error('a transcription is routed once its seconds are read from the recording');
    checkLanguage(operation.language, serving, asked);
  }
  if (operation.kind !== 'embeddings') return;
  checkWidth(operation.dimensions, serving, asked);
  const modalities = new Set(serving.flatMap((endpoint) => endpoint.inputModalities));
  for (const part of operation.parts) {
    if (!modalities.has(part.modality)) {
      throw invalidRequest(part.field, `${asked} does not accept ${part.modality} input (declared: ${[...modalities].join(', ')})`);
    }
  }
}

function checkWidth(dimensions: number | undefined, serving: readonly EndpointEntry[], asked: string): void {
  if (dimensions === undefined) return;
  const widths = [...new Set(serving.flatMap((endpoint) => endpoint.supportedDimensions ?? []))].sort((a, b) => a - b);
  if (widths.includes(dimensions)) return;
  const declared = widths.length > 0 ? `declared widths: ${widths.join(', ')}` : 'no endpoint declares supported_dimensions';
  const error = invalidRequest('dimensions', `${asked} has no live endpoint producing ${dimensions} dimensions (${declared})`);
  error.metadata.supported_dimensions = widths;
  throw error;
}

function checkLanguage(language: string | undefined, serving: readonly EndpointEntry[], asked: string): void {
  if (language === undefined) return;
  const lists = serving.map((endpoint) => endpoint.listing.supportedLanguages);
  if (lists.some((list) => list === null || speaksLanguage(list, language))) return;
  const declared = [...new Set(lists.flatMap((list) => list ?? []))].sort();
  const error = invalidRequest('language', `${asked} transcribes no ${language} (declared languages: ${declared.join(', ')})`);
  error.metadata.supported_languages = declared;
  throw error;
}
