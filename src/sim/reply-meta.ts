import type { ReplyPlan } from './reply-plan.js';

/** The identity every body or chunk of one reply repeats. */
export interface ReplyMeta {
  id: string;
  created: number;
  /** The model name exactly as the request gave it. */
  model: string;
}

export interface UsageBody {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export function usageBody(plan: ReplyPlan): UsageBody {
  return {
    prompt_tokens: plan.promptTokens,
    completion_tokens: plan.completionTokens,
    total_tokens: plan.promptTokens + plan.completionTokens,
  };
}
