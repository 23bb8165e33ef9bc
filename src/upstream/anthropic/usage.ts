import type { CoreEvent, CoreUsage, FinishReason } from '../../core/events.js';
import { ownEntry } from '../../core/own-entry.js';
import { countOf, objectOf, type JsonObject } from '../json-guards.js';

/**
 * Reads Anthropic usage. `input_tokens` counts only the tokens after the last cache breakpoint,
 * so the prompt is `input_tokens` plus the cache reads and writes; an unreported count stays
 * undefined. Streams report usage twice (`message_start`, then cumulative `message_delta`):
 * later counts replace earlier ones.
 */
export function readAnthropicUsage(...reports: JsonObject[]): CoreUsage {
  let input: number | undefined;
  let output: number | undefined;
  let cacheRead: number | undefined;
  let cacheWrite: number | undefined;
  let thinking: number | undefined;
  for (const usage of reports) {
    input = countOf(usage.input_tokens) ?? input;
    output = countOf(usage.output_tokens) ?? output;
    cacheRead = countOf(usage.cache_read_input_tokens) ?? cacheRead;
    cacheWrite = countOf(usage.cache_creation_input_tokens) ?? cacheWrite;
    thinking = countOf(objectOf(usage.output_tokens_details)?.thinking_tokens) ?? thinking;
  }
  const read: CoreUsage = {};
  if (input !== undefined) read.promptTokens = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
  if (output !== undefined) read.completionTokens = output;
  if (cacheRead !== undefined && cacheRead > 0) read.cachedTokens = cacheRead;
  if (cacheWrite !== undefined && cacheWrite > 0) read.cacheWriteTokens = cacheWrite;
  if (thinking !== undefined) read.reasoningTokens = thinking;
  return read;
}

const STOP_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** The core finish reason for an Anthropic `stop_reason`; an unknown one reads as a normal stop. */
export function mapStopReason(raw: string): FinishReason {
  return ownEntry(STOP_REASONS, raw) ?? 'stop';
}

/** The finish event for a `stop_reason`, naming the stop sequence that matched when there was one. */
export function finishEvent(stopReason: string, stopSequence: string | undefined): Extract<CoreEvent, { type: 'finish' }> {
  const finish: Extract<CoreEvent, { type: 'finish' }> = { type: 'finish', reason: mapStopReason(stopReason), raw: stopReason };
  if (stopReason === 'stop_sequence' && stopSequence !== undefined) finish.stopSequence = stopSequence;
  return finish;
}
