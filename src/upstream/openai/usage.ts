import type { CoreUsage, FinishReason } from '../../core/events.js';
import { ownEntry } from '../../core/own-entry.js';
import { countOf, objectOf, type JsonObject } from '../json-guards.js';

/** Reads an OpenAI-compatible `usage` object; counts the provider did not send stay undefined. */
export function readOpenAiUsage(usage: JsonObject): CoreUsage {
  const promptDetails = objectOf(usage.prompt_tokens_details);
  const completionDetails = objectOf(usage.completion_tokens_details);
  const read: CoreUsage = {};
  const prompt = countOf(usage.prompt_tokens);
  const completion = countOf(usage.completion_tokens);
  const cached = countOf(promptDetails?.cached_tokens);
  const cacheWrite = countOf(promptDetails?.cache_write_tokens);
  const reasoning = countOf(completionDetails?.reasoning_tokens);
  if (prompt !== undefined) read.promptTokens = prompt;
  if (completion !== undefined) read.completionTokens = completion;
  if (cached !== undefined && cached > 0) read.cachedTokens = cached;
  if (cacheWrite !== undefined && cacheWrite > 0) read.cacheWriteTokens = cacheWrite;
  if (reasoning !== undefined) read.reasoningTokens = reasoning;
  return read;
}

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  length: 'length',
  max_tokens: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  tool_use: 'tool_calls',
  content_filter: 'content_filter',
  error: 'error',
};

export function mapFinishReason(raw: string): FinishReason {
  return ownEntry(FINISH_REASONS, raw) ?? 'stop';
}
