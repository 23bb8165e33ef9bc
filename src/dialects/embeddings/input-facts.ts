import { fromUrl, type InputPart, type RequestFacts } from '../../core/request-facts.js';
import { PER_MEDIA_PART, TokenEstimator } from '../../core/token-estimate.js';
import type { EmbeddingsPart, InputEntry } from './schema.js';

/**
 * What the planner judges of an embeddings batch: the prompt estimate of every entry (the hold),
 * the largest entry (each must fit the endpoint's window on its own) and the non-text parts
 * (input sources and containers, as on chat).
 */
export function embeddingsFacts(entries: readonly InputEntry[]): RequestFacts {
  const inputs: InputPart[] = [];
  let promptTokens = 0;
  let windowTokens = 0;
  const estimator = new TokenEstimator();
  for (const entry of entries) {
    const tokens = entryTokens(entry, inputs, estimator);
    promptTokens += tokens;
    windowTokens = Math.max(windowTokens, tokens);
  }
  return { promptTokens, messageTokens: [], toolTokens: 0, inputs, windowTokens };
}

function entryTokens(entry: InputEntry, inputs: InputPart[], estimator: TokenEstimator): number {
  if (typeof entry === 'string') return estimator.count(entry);
  if (Array.isArray(entry)) return entry.length;
  let tokens = 0;
  for (const part of entry.content) {
    if (part.type === 'text') {
      tokens += estimator.count(part.text);
      continue;
    }
    inputs.push(routedPart(part));
    tokens += PER_MEDIA_PART;
  }
  return tokens;
}

function routedPart(part: Exclude<EmbeddingsPart, { type: 'text' }>): InputPart {
  switch (part.type) {
    case 'image_url':
      return fromUrl('image', part.image_url.url);
    case 'input_audio':
      return { modality: 'audio', source: 'base64', container: part.input_audio.format.toLowerCase(), inlineAudio: true };
    case 'input_video':
      return { modality: 'video', source: 'base64', container: part.input_video.format.toLowerCase() };
    case 'input_file':
      return { modality: 'file', source: 'base64', container: part.input_file.format.toLowerCase() };
  }
}
