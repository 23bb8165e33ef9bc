import { createHash } from 'node:crypto';
import { isPlainObject } from '../core/plain-object.js';
import { countTextPromptTokens } from './prompt-tokens.js';

/** Tokens the simulator counts for one non-text part, by modality. */
const MEDIA_TOKENS: Readonly<Record<string, number>> = { image: 64, audio: 32, video: 128, file: 16 };
const PART_MODALITY: Readonly<Record<string, string>> = {
  image_url: 'image',
  input_audio: 'audio',
  input_video: 'video',
  input_file: 'file',
};

/**
 * A deterministic vector for one input entry: each component is k/1024 for an integer k in
 * [-1024, 1024] drawn from SHA-256 of the entry's JSON, so it survives float32 (base64) exactly.
 */
export function embeddingVector(entry: unknown, width: number): number[] {
  const vector: number[] = [];
  let block = Buffer.alloc(0);
  for (let index = 0; index < width; index += 1) {
    const offset = (index * 2) % 32;
    if (offset === 0) block = createHash('sha256').update(`${JSON.stringify(entry)}#${index / 16}`).digest();
    vector.push((block.readUInt16BE(offset) % 2049 - 1024) / 1024);
  }
  return vector;
}

/** Prompt tokens of one entry, by modality: o200k tokens of text, token-array length, a fixed count per media part. */
export function entryTokens(entry: unknown, into: Map<string, number>): void {
  const add = (modality: string, count: number): void => {
    into.set(modality, (into.get(modality) ?? 0) + count);
  };
  if (typeof entry === 'string') add('text', textTokens(entry));
  else if (Array.isArray(entry)) add('text', entry.length);
  if (!isPlainObject(entry) || !Array.isArray(entry.content)) return;
  for (const part of entry.content) {
    if (!isPlainObject(part)) continue;
    if (part.type === 'text') add('text', textTokens(typeof part.text === 'string' ? part.text : ''));
    const modality = PART_MODALITY[String(part.type)];
    if (modality) add(modality, MEDIA_TOKENS[modality] ?? 0);
  }
}

function textTokens(text: string): number {
  return countTextPromptTokens(text);
}

/** The entries of an embeddings `input`: a string, a token array, or a list of either or of items. */
export function inputEntries(input: unknown): unknown[] | undefined {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) return undefined;
  return typeof input[0] === 'number' ? [input] : input;
}
