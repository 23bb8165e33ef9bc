import type { EligibilityRule } from './eligibility-rule.js';
import { PROVIDER_RULES } from './provider-rules.js';
import { CAPABILITY_RULES } from './capability-rules.js';
import { INPUT_RULES } from './input-rules.js';
import { SPEECH_RULES } from './speech-rules.js';
import { OPERATION_RULES } from './operation-rules.js';
import { IMAGE_RULES } from './image-rules.js';

const operatorDisabled: EligibilityRule = ({ endpoint }) =>
  endpoint.disabled ? 'disabled by the operator' : null;

/** Every rule, cheapest first; the first reason found is the one reported. */
export const ELIGIBILITY_RULES: readonly EligibilityRule[] = [
  operatorDisabled,
  ...OPERATION_RULES,
  ...IMAGE_RULES,
  ...PROVIDER_RULES,
  ...CAPABILITY_RULES,
  ...INPUT_RULES,
  ...SPEECH_RULES,
];

export function firstRejection(candidate: Parameters<EligibilityRule>[0]): string | null {
  for (const rule of ELIGIBILITY_RULES) {
    const reason = rule(candidate);
    if (reason) return reason;
  }
  return null;
}
