import type { ReasoningPlan } from './reasoning-plan.js';

/** Hosted marketplaces mark details whose originating dialect they do not name as `unknown`. */
const FORMAT = 'unknown';

export interface ReasoningTextDetail {
  type: 'reasoning.text';
  text: string;
  signature?: string;
  index: 0;
  format: typeof FORMAT;
}

export interface ReasoningEncryptedDetail {
  type: 'reasoning.encrypted';
  data: string;
  index: 1;
}

/** A `reasoning.text` detail: the whole text, or one streamed fragment of it. */
export function textDetail(text: string, signature?: string): ReasoningTextDetail {
  return signature === undefined
    ? { type: 'reasoning.text', text, index: 0, format: FORMAT }
    : { type: 'reasoning.text', text, signature, index: 0, format: FORMAT };
}

export function encryptedDetail(data: string): ReasoningEncryptedDetail {
  return { type: 'reasoning.encrypted', data, index: 1 };
}

/** `message.reasoning_details` of a non-streamed reply: the signed text, then the encrypted blob. */
export function wholeReasoningDetails(reasoning: ReasoningPlan): Array<ReasoningTextDetail | ReasoningEncryptedDetail> {
  const details: Array<ReasoningTextDetail | ReasoningEncryptedDetail> = [textDetail(reasoning.text, reasoning.signature)];
  if (reasoning.encrypted !== undefined) details.push(encryptedDetail(reasoning.encrypted));
  return details;
}
