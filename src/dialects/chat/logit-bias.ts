import { invalidRequest } from '../../core/errors.js';

/** A `logit_bias` key as the OpenAI API takes it: a token id written as a decimal integer. */
const TOKEN_ID = /^\d+$/;

/**
 * `logit_bias` maps token ids to a bias in −100…100. The schema checks the value under every key that
 * is a token id; a key that is not one is refused here, naming it, instead of being passed on for an
 * endpoint to reject (or for routing to find no endpoint that takes it).
 */
export function checkLogitBias(bias: Readonly<Record<string, unknown>> | undefined): void {
  if (bias === undefined) return;
  const stray = Object.keys(bias).find((key) => !TOKEN_ID.test(key));
  if (stray === undefined) return;
  throw invalidRequest('logit_bias', `key ${JSON.stringify(stray)} is not a token id (keys are token ids written as decimal integers, such as "50256")`);
}
