import type { ReasoningDomain, ReasoningEffort } from '../../catalogue/types.js';
import type { ReasoningRequest } from '../../core/request.js';

/** The smallest thinking budget the wire accepts. */
export const MIN_THINKING_BUDGET = 1024;

/** Share of the output ceiling given to thinking when only an effort level was asked for. */
export const EFFORT_BUDGET_SHARE = {
  minimal: 0.1,
  low: 0.2,
  medium: 0.5,
  high: 0.8,
  xhigh: 0.9,
  max: 0.95,
} as const satisfies Record<Exclude<ReasoningEffort, 'none'>, number>;

export type ThinkingConfig = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };

/**
 * The `thinking` member for a request's reasoning controls (spec 01 rule 3): `reasoning.max_tokens`
 * is the budget as given; otherwise an effort level (or `enabled: true` with the endpoint's
 * default effort, else `medium`) takes its share of the output ceiling sent, at least 1,024;
 * effort `none` or `enabled: false` turns thinking off. Undefined when nothing asks either way.
 */
export function thinkingConfig(reasoning: ReasoningRequest | undefined, maxTokens: number, domain: ReasoningDomain | null): ThinkingConfig | undefined {
  if (!reasoning) return undefined;
  if (reasoning.effort === 'none' || reasoning.enabled === false) return { type: 'disabled' };
  if (reasoning.maxTokens !== undefined) return { type: 'enabled', budget_tokens: reasoning.maxTokens };
  const effort = reasoning.effort ?? (reasoning.enabled === true ? domain?.defaultEffort ?? 'medium' : undefined);
  if (effort === undefined) return undefined;
  if (effort === 'none') return { type: 'disabled' };
  const budget = Math.floor(maxTokens * EFFORT_BUDGET_SHARE[effort]);
  return { type: 'enabled', budget_tokens: Math.max(MIN_THINKING_BUDGET, budget) };
}
