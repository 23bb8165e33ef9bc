import type { EndpointEntry } from '../../catalogue/types.js';
import { failedCheckReason, withheld } from '../capability-checks.js';
import type { InputPart } from '../request-facts.js';
import type { EligibilityRule } from './eligibility-rule.js';
import { windowRejection } from './window.js';

/** Why an endpoint cannot take one part of the conversation, or null (rules 10, 11). */
export function partRejection(endpoint: EndpointEntry, part: InputPart): string | null {
  if (!endpoint.inputModalities.includes(part.modality)) return `does not accept ${part.modality} input`;
  const sources = endpoint.inputSources[part.modality];
  if (sources && !sources.includes(part.source)) {
    return part.source === 'base64'
      ? `fetches ${part.modality} by URL and cannot be handed bytes`
      : `does not accept ${part.modality} by URL`;
  }
  const containers = endpoint.inputContainers[part.modality];
  if (containers && part.container !== undefined && !containers.includes(part.container)) {
    return `does not accept ${part.modality} in ${part.container}`;
  }
  return null;
}

const inputParts: EligibilityRule = ({ endpoint, input }) => {
  for (const part of input.facts.inputs) {
    const reason = partRejection(endpoint, part);
    if (reason) return reason;
    const failed = withheld(input.verdicts, endpoint.id, `input:${part.modality}`);
    if (failed) return failedCheckReason(`${part.modality} input withheld`, failed);
  }
  return null;
};

const fitsWindow: EligibilityRule = ({ endpoint, input }) => windowRejection(endpoint, input);

export const INPUT_RULES: readonly EligibilityRule[] = [inputParts, fitsWindow];
