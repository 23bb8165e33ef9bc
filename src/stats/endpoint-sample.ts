import type { RenderSample } from './render-sums.js';

/**
 * What one upstream attempt tells about its endpoint (DESIGN §8 "Measured figures"). Each member
 * is measured only where it applies; an absent member is not measured, never 0.
 */
export interface EndpointSample {
  /**
   * Whether the attempt counts for uptime, and how: `true` the endpoint answered, `false` it failed
   * (an error status other than a rejection of the request itself, a timeout, a connection or
   * protocol failure, a stream that broke off). Absent: the attempt says nothing of the endpoint
   * (the caller left, the instance restarted, the endpoint rejected the request as malformed).
   */
  ok?: boolean;
  /** Seconds from the attempt's start to its first content; streamed answers only. */
  ttftSeconds?: number;
  /** Seconds from the attempt's start to the end of a complete answer. */
  responseSeconds?: number;
  /** Completion tokens per second after the first token; streams of at least 16 completion tokens only. */
  tokensPerSecond?: number;
  /** A request offering tools answered with tool calls (or owing one): whether they were well-formed. */
  toolCall?: boolean;
  /** A complete streamed answer: whether the output ceiling cut it before a natural stop. */
  runaway?: boolean;
  /** A complete image generation whose pictures' bytes came back: their megapixels and sizes, and the seconds it took. */
  render?: RenderSample;
}

/** Where samples go; recording is on the hot path of every attempt, so it must stay cheap. */
export interface SampleRecorder {
  record(endpointId: string, sample: EndpointSample): void;
}

/** Throughput samples need at least this many completion tokens (spec 02 "Limits"). */
export const MIN_THROUGHPUT_TOKENS = 16;

/**
 * Tokens per second after the first token, when the stream qualifies as a throughput sample. The
 * span is read on a millisecond clock: one that reads 0 (the rest of the answer came in the same
 * read as its first token, or within the millisecond) lasted under 1 ms, so the tokens over 1 ms
 * are a floor of the true rate. Dropping such streams instead would leave the quickest endpoint
 * without a figure, and last in a sort by throughput.
 */
export function streamThroughput(completionTokens: number | undefined, streamMs: number): number | undefined {
  if (completionTokens === undefined || completionTokens < MIN_THROUGHPUT_TOKENS || streamMs < 0) return undefined;
  return completionTokens / (Math.max(streamMs, 1) / 1000);
}
