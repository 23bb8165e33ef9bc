import type { ReplyPlan } from './reply-plan.js';

/** One content block of an Anthropic reply, with the pieces a stream sends one per event. */
export type SimBlock =
  | { type: 'thinking'; tokens: string[]; text: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'text'; tokens: string[] }
  | { type: 'tool_use'; id: string; name: string; arguments: string; fragments: string[] };

/**
 * Reasoning first (signed thinking, then the redacted blob), then the answer: tool calls (one
 * block each, one after the other: this wire never interleaves blocks), refusal or text.
 */
export function messageBlocks(plan: ReplyPlan): SimBlock[] {
  const blocks: SimBlock[] = [];
  const { reasoning, toolCalls } = plan;
  if (reasoning) {
    blocks.push({ type: 'thinking', tokens: reasoning.tokens, text: reasoning.text, signature: reasoning.signature });
    if (reasoning.encrypted !== undefined) blocks.push({ type: 'redacted_thinking', data: reasoning.encrypted });
  }
  if (toolCalls.length > 0) blocks.push(...toolCalls.map((call): SimBlock => ({ type: 'tool_use', ...call })));
  else if (plan.refusal) blocks.push({ type: 'text', tokens: plan.refusal });
  else if (plan.content.length > 0) blocks.push({ type: 'text', tokens: plan.content });
  return blocks;
}

const STOP_REASONS: Readonly<Record<string, string>> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' };

/** The wire's stop reason: the configured raw one, `refusal`, or the computed finish in Anthropic's words. */
export function stopReason(plan: ReplyPlan, nativeFinish: string | undefined): string {
  if (nativeFinish !== undefined) return nativeFinish;
  if (plan.refusal) return 'refusal';
  if (plan.stopSequence !== undefined) return 'stop_sequence';
  return STOP_REASONS[plan.finishReason] ?? plan.finishReason;
}

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens_details?: { thinking_tokens: number };
}

/** Anthropic usage: `input_tokens` leaves out the cache reads and writes, which have their own counts. */
export function anthropicUsage(plan: ReplyPlan): AnthropicUsage {
  const cached = plan.cachedTokens ?? 0;
  const written = plan.cacheWriteTokens ?? 0;
  const usage: AnthropicUsage = {
    input_tokens: plan.promptTokens - cached - written,
    output_tokens: plan.completionTokens,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
  };
  if (plan.reasoningTokens !== undefined) usage.output_tokens_details = { thinking_tokens: plan.reasoningTokens };
  return usage;
}
