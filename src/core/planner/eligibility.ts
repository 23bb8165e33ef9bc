import type { Candidate } from './context.js';

/** A routing rule: the reason an endpoint cannot serve the request, or null when it can. */
export type EligibilityRule = (candidate: Candidate) => string | null;

const operatorDisabled: EligibilityRule = ({ endpoint }) =>
  endpoint.disabled ? 'disabled by the operator' : null;

/** Every explicitly requested optional setting needs the endpoint's declaration. */
const declaredParameters: EligibilityRule = ({ endpoint, input }) => {
  const { request } = input;
  const asked = Object.keys(request.parameters);
  if (request.tools) asked.push('tools');
  if (request.toolChoice !== undefined) asked.push('tool_choice');
  const missing = asked.filter((name) => !endpoint.supportedParameters.has(name));
  return missing.length > 0 ? `does not support ${missing.join(', ')}` : null;
};

/** The prompt alone must fit the window, leaving room for at least one output token. */
const promptFitsWindow: EligibilityRule = ({ endpoint, input }) =>
  input.promptTokens >= endpoint.contextLength
    ? `prompt of about ${input.promptTokens} tokens does not fit the context window of ${endpoint.contextLength}`
    : null;

export const ELIGIBILITY_RULES: readonly EligibilityRule[] = [operatorDisabled, declaredParameters, promptFitsWindow];
