import type { ReplyAccounting } from '../shared/reply-meta.js';

export interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens: number };
  cost: number;
}

/** Counts omitted when unreported, `total_tokens` only when both are known, `cost` always, and last (as hosted marketplaces render it). */
export function encodeChatUsage({ usage, cost }: ReplyAccounting): ChatUsage {
  if (!usage) return { cost };
  const { promptTokens, completionTokens, cachedTokens, cacheWriteTokens, reasoningTokens } = usage;
  // members are added in the order they are rendered; a literal with every member would render the absent ones
  const encoded: Partial<ChatUsage> = {};
  if (promptTokens !== undefined) encoded.prompt_tokens = promptTokens;
  if (completionTokens !== undefined) encoded.completion_tokens = completionTokens;
  if (promptTokens !== undefined && completionTokens !== undefined) encoded.total_tokens = promptTokens + completionTokens;
  if (cachedTokens !== undefined || cacheWriteTokens !== undefined) {
    encoded.prompt_tokens_details = { cached_tokens: cachedTokens ?? 0 };
    if (cacheWriteTokens !== undefined) encoded.prompt_tokens_details.cache_write_tokens = cacheWriteTokens;
  }
  if (reasoningTokens !== undefined) encoded.completion_tokens_details = { reasoning_tokens: reasoningTokens };
  encoded.cost = cost;
  return encoded as ChatUsage;
}
