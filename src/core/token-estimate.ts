import type { ContentPart, CoreMessage, ToolDefinition } from './request.js';
import { rememberedJsonText } from './json-text.js';
import { RememberedCounts } from './remembered-counts.js';
import { countLeadingTokens, countTextTokens, LONG_PIECE } from './text-tokens.js';

/** Tokens every message costs beyond its text (role and separators), as chat templates add them. */
const PER_MESSAGE_OVERHEAD = 3;
/** Tokens reserved for an image or other non-text part whose real cost the endpoint decides. */
export const PER_MEDIA_PART = 85;
/** UTF-8 bytes of one request's text that are tokenized at most; the rest is estimated from its size. */
export const TOKENIZED_BYTES = 8 * 1024;
/** Of those, the part kept for samples of the texts too long to count whole. */
const SAMPLE_RESERVE = 2 * 1024;
/** Stretches of a text too long to count whole that are counted, spread evenly over it (at most)… */
const SAMPLES = 32;
/** …each of at least this many bytes. */
const MIN_SAMPLE_BYTES = 64;
/**
 * The fewest tokens per byte an untokenized rest is estimated at. Text of any language tokenizes
 * at more (English prose about 1 in 4.5, code and JSON 1 in 3 to 4, CJK about 1 in 3); only runs of
 * one character or of spaces come below it.
 */
export const MIN_TOKENS_PER_BYTE = 1 / 5;
/** Extrapolated counts are raised by this much, so that they err on the side of the hold. */
const REST_MARGIN = 1.03;

const NOTHING_COUNTED = { tokens: 0, bytes: 0 };

/** What counting one text found: its tokens (of `bytes` counted), and the share of budget its samples had (`WHOLE` when counted whole). */
export interface TextCount {
  share: number;
  tokens: number;
  bytes: number;
}
export const WHOLE = -1;
/** Texts of 64 code units and more are remembered, up to 4 Mi code units of them (4 to 8 MiB). */
export const remembered = new RememberedCounts<TextCount>(4 * 1024 * 1024, 64);

/**
 * Token counts of one request's texts, sharing one budget of tokenizing work, so that an estimate
 * never keeps the event loop busy for more than a few milliseconds whatever the body: the BPE
 * tokenizer costs up to ~1 µs per byte on text made to defeat it (random symbols, rare CJK), and a
 * body may hold 8 MB of it. Worst case measured: ~3-6 ms of CPU on a busy 2-core machine.
 *
 * Texts are counted whole with the real tokenizer, in time linear in their length (text-tokens.ts),
 * while they fit in what is left of TOKENIZED_BYTES less SAMPLE_RESERVE: a normal request is
 * counted exactly. Of a text that does not fit, up to SAMPLES stretches spread evenly over it are
 * counted, half of what is left between them, each starting at a space where one is close and
 * stopping between two pre-tokens; the rest is estimated from its UTF-8 size at their ratio of
 * tokens to bytes (at the ratio of everything counted so far once the budget is spent), never below
 * MIN_TOKENS_PER_BYTE and raised by REST_MARGIN. A long text (a document, a file, a long
 * conversation) comes within a few percent of its exact count, mostly above, which is as close as
 * the endpoints' own tokenizers come to this one anyway. The byte sizes are native and cost about
 * a millisecond per few megabytes, so the whole estimate stays linear in the body.
 *
 * What counting a text of some length found is remembered (remembered-counts.ts), for the same
 * share of the budget: a text sent again costs a lookup, and the estimate stays what it would be.
 */
export class TokenEstimator {
  #left = TOKENIZED_BYTES;
  #tokens = 0;
  #bytes = 0;

  count(text: string): number {
    if (text.length === 0) return 0;
    const bytes = Buffer.byteLength(text);
    const share = Math.floor(this.#left / 2);
    if (bytes <= this.#left - SAMPLE_RESERVE || bytes <= share) {
      const tokens = countWhole(text, bytes);
      this.#counted(tokens, bytes);
      return tokens;
    }
    const sample = countSampled(text, share);
    this.#counted(sample.tokens, sample.bytes);
    const ratio = sample.bytes > 0 ? sample.tokens / sample.bytes : this.#tokens / Math.max(this.#bytes, 1);
    const rest = bytes - sample.bytes;
    return sample.tokens + (rest > 0 ? Math.max(1, Math.round(rest * Math.max(ratio, MIN_TOKENS_PER_BYTE) * REST_MARGIN)) : 0);
  }

  #counted(tokens: number, bytes: number): void {
    this.#tokens += tokens;
    this.#bytes += bytes;
    this.#left = Math.max(0, this.#left - bytes);
  }
}

function countWhole(text: string, bytes: number): number {
  const known = remembered.get(text);
  if (known?.share === WHOLE) return known.tokens;
  const tokens = countTextTokens(text);
  remembered.set(text, { share: WHOLE, tokens, bytes });
  return tokens;
}

/** Samples of `text` worth `share` bytes of budget in all: what they counted. */
function countSampled(text: string, share: number): { tokens: number; bytes: number } {
  const known = remembered.get(text);
  if (known?.share === share) return known;
  const samples = Math.min(SAMPLES, Math.floor(share / MIN_SAMPLE_BYTES));
  if (samples === 0) return NOTHING_COUNTED;
  const sample = countSamples(text, samples, share / samples);
  remembered.set(text, { share, ...sample });
  return sample;
}

/** Counts `samples` stretches of about `bytesEach` UTF-8 bytes, spread evenly over `text`. */
function countSamples(text: string, samples: number, bytesEach: number): { tokens: number; bytes: number } {
  let tokens = 0;
  let bytes = 0;
  for (let index = 0; index < samples; index += 1) {
    const start = sampleStart(text, Math.floor((index * text.length) / samples));
    const end = index + 1 < samples ? sampleStart(text, Math.floor(((index + 1) * text.length) / samples)) : text.length;
    const counted = countLeadingTokens(text.slice(start, end), bytesEach);
    tokens += counted.tokens;
    bytes += counted.bytes;
  }
  return { tokens, bytes };
}

/**
 * Where a stretch starting near `index` starts: at the next space close by, where a word starts (so
 * the stretch does not open with the end of a word cut in two), and never inside a surrogate pair.
 */
function sampleStart(text: string, index: number): number {
  if (index === 0) return 0;
  const space = text.slice(index, index + LONG_PIECE).indexOf(' ');
  if (space >= 0) return index + space;
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index + 1 : index;
}

/**
 * Estimates the prompt an endpoint receives: every message's text plus the tool schemas,
 * counted with a real BPE tokenizer.
 */
export function estimatePromptTokens(messages: readonly CoreMessage[], tools?: readonly ToolDefinition[]): number {
  const estimator = new TokenEstimator();
  return messages.reduce((sum, message) => sum + estimateMessageTokens(message, estimator), estimateToolTokens(tools, estimator));
}

export function estimateMessageTokens(message: CoreMessage, estimator: TokenEstimator): number {
  let total = PER_MESSAGE_OVERHEAD + estimator.count(message.name ?? '') + countContent(message.content, estimator);
  if (message.tool_calls) total += estimator.count(JSON.stringify(message.tool_calls));
  if (message.reasoning) total += estimator.count(message.reasoning);
  return total;
}

export function estimateToolTokens(tools: readonly ToolDefinition[] | undefined, estimator: TokenEstimator): number {
  // the text the upstream body takes as written (json-text.ts)
  return tools && tools.length > 0 ? estimator.count(rememberedJsonText(tools)) : 0;
}

/** Tokens of one text on its own, with the same tokenizer and the same bound on work. */
export function countText(text: string): number {
  return new TokenEstimator().count(text);
}

function countContent(content: CoreMessage['content'], estimator: TokenEstimator): number {
  if (typeof content === 'string') return estimator.count(content);
  if (!Array.isArray(content)) return 0;
  return content.reduce((sum, part) => sum + countPart(part, estimator), 0);
}

function countPart(part: ContentPart, estimator: TokenEstimator): number {
  return part.type === 'text' ? estimator.count(part.text) : PER_MEDIA_PART;
}
