import { createHash } from 'node:crypto';
import { cycledWord } from './word-cycle.js';

/** The reasoning a reply shows before its answer. */
export interface ReasoningPlan {
  /** One token per streamed chunk. */
  tokens: string[];
  text: string;
  /** Carried by the whole `reasoning.text` detail, or by its last streamed fragment. */
  signature: string;
  /** Base64 of the opaque `reasoning.encrypted` detail; undefined = none. */
  encrypted: string | undefined;
}

const REASONING_WORDS = [
  'Let', ' me', ' think', ' this', ' through', ' step', ' by', ' step', ' before', ' answering', '.',
] as const;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** N reasoning tokens with a signature and, when asked, an encrypted detail, all derived from the text. */
export function planReasoning(tokenCount: number, encrypted: boolean): ReasoningPlan {
  const tokens = Array.from({ length: tokenCount }, (_, i) => cycledWord(REASONING_WORDS, i));
  const text = tokens.join('');
  return {
    tokens,
    text,
    signature: `sig-${digest(text).toString('hex').slice(0, 32)}`,
    encrypted: encrypted ? digest(`encrypted:${text}`).toString('base64') : undefined,
  };
}
