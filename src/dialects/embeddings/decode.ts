import { invalidRequest } from '../../core/errors.js';
import type { EmbeddedModality, EmbeddingsAsk, EmbeddingsInput } from '../../core/embeddings.js';
import type { DecodedOperation } from '../../core/decoded-operation.js';
import type { JudgedPart } from '../../core/operation.js';
import { readSessionHeader, type HeaderBag } from '../shared/request-headers.js';
import { singleCallRequest } from '../shared/single-call-request.js';
import { embeddingsFacts } from './input-facts.js';
import type { EmbeddingsPart, EmbeddingsRequestBody, InputEntry } from './schema.js';


/** Inputs one request may embed (spec 01 limits: string array up to 2,048 entries). */
export const MAX_EMBEDDINGS_INPUTS = 2048;

/** Embeddings wire → the routing request, the planner's facts and the core ask. */
export function decodeEmbeddingsRequest(body: EmbeddingsRequestBody, headers: HeaderBag): DecodedOperation<EmbeddingsAsk> {
  const entries = inputEntries(body.input);
  if (entries.length > MAX_EMBEDDINGS_INPUTS) throw invalidRequest('input', `holds ${entries.length} entries; at most ${MAX_EMBEDDINGS_INPUTS}`);
  const parts = judgedParts(entries);
  const ask: EmbeddingsAsk = {
    input: body.input as EmbeddingsInput,
    count: entries.length,
    encoding: body.encoding_format ?? 'float',
    modalities: inputModalities(entries),
  };
  if (body.dimensions !== undefined) ask.dimensions = body.dimensions;
  if (body.input_type !== undefined) ask.inputType = body.input_type;
  if (body.user !== undefined) ask.user = body.user;
  const request = singleCallRequest(body, headers, {
    softParameters: body.input_type === undefined ? {} : { input_type: body.input_type },
    operation: { kind: 'embeddings', parts, ...(ask.dimensions !== undefined && { dimensions: ask.dimensions }) },
  });
  const session = readSessionHeader(headers);
  if (session !== undefined) request.sessionId = session;
  return { request, facts: embeddingsFacts(entries), ask };
}

/** The entries of `input`, each embedded into its own vector. */
export function inputEntries(input: EmbeddingsRequestBody['input']): InputEntry[] {
  if (typeof input === 'string') return [input];
  if (input.length > 0 && typeof input[0] === 'number') return [input as number[]];
  return input as InputEntry[];
}

/** The modality a part carries (text is never judged). */
export function partModality(part: EmbeddingsPart): EmbeddedModality {
  switch (part.type) {
    case 'text':
      return 'text';
    case 'image_url':
      return 'image';
    case 'input_audio':
      return 'audio';
    case 'input_video':
      return 'video';
    case 'input_file':
      return 'file';
  }
}

function judgedParts(entries: readonly InputEntry[]): JudgedPart[] {
  const parts: JudgedPart[] = [];
  entries.forEach((entry, index) => {
    if (typeof entry === 'string' || Array.isArray(entry)) return;
    entry.content.forEach((part, partIndex) => {
      const modality = partModality(part);
      if (modality !== 'text') parts.push({ field: `input[${index}].content[${partIndex}]`, modality });
    });
  });
  return parts;
}

function inputModalities(entries: readonly InputEntry[]): Set<EmbeddedModality> {
  const modalities = new Set<EmbeddedModality>();
  for (const entry of entries) {
    if (typeof entry === 'string' || Array.isArray(entry)) modalities.add('text');
    else for (const part of entry.content) modalities.add(partModality(part));
  }
  return modalities;
}
