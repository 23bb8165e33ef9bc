import { servingRevision } from '../../catalogue/serving-revision.js';
import { effortRefutation, failedCheckReason, withheld } from '../capability-checks.js';
import type { Candidate } from './context.js';
import type { EligibilityRule } from './eligibility-rule.js';

/** Parameters whose declaration is verified by checks: a failed latest check withholds the promise (rule 1). */
const CHECKED_PARAMETERS = ['tools', 'structured_outputs'] as const;

/** The declarations this request needs from an endpoint (rules 1–3). */
export function requiredDeclarations({ input, preferences }: Candidate): string[] {
  const { request } = input;
  const names = Object.keys(request.parameters);
  if (preferences.requireParameters) names.push(...Object.keys(request.softParameters));
  if (request.tools) names.push('tools');
  if (request.toolChoice !== undefined) names.push('tool_choice');
  if (request.structuredOutputs) names.push('structured_outputs');
  return names;
}

/** Every explicitly requested optional setting needs a declaration (rule 2), verified where checked (rule 1). */
const declaredParameters: EligibilityRule = (candidate) => {
  const { endpoint, input } = candidate;
  const required = requiredDeclarations(candidate);
  const missing = required.filter((name) => !endpoint.supportedParameters.has(name));
  if (missing.length > 0) return `does not declare ${missing.join(', ')}`;
  for (const name of CHECKED_PARAMETERS) {
    const failed = required.includes(name) ? withheld(input.verdicts, endpoint.id, name) : undefined;
    if (failed) return failedCheckReason(`${name} withheld`, failed);
  }
  return null;
};

function asksReasoning(candidate: Candidate): boolean {
  const reasoning = candidate.input.request.reasoning;
  return reasoning !== undefined && (reasoning.effort !== undefined || reasoning.maxTokens !== undefined || reasoning.enabled !== undefined);
}

/** Reasoning controls are sent only where declared as `reasoning` or `reasoning_effort` (rule 3). */
const reasoningDeclared: EligibilityRule = (candidate) => {
  const declared = candidate.endpoint.supportedParameters;
  if (!asksReasoning(candidate) || declared.has('reasoning') || declared.has('reasoning_effort')) return null;
  return 'does not declare reasoning';
};

/**
 * Effort matching (rules 4, 5): a known domain must list the level (no mapping to a nearby one);
 * a level is excluded while a failed check of it matches the serving revision and the probe version
 * and is under 24 hours old; `none` is excluded where the latest `none` check found reasoning in
 * the reply. An unknown domain, or a level never checked, stays eligible.
 */
const effortMatches: EligibilityRule = ({ endpoint, input }) => {
  const effort = input.request.reasoning?.effort;
  if (effort === undefined) return null;
  const supported = endpoint.reasoning?.supportedEfforts;
  if (supported && !supported.includes(effort)) return `reasoning effort ${effort} not among its declared efforts (${supported.join(', ')})`;
  const refuted = effortRefutation(input.verdicts, { id: endpoint.id, revision: servingRevision(endpoint) }, effort, input.now.getTime());
  if (refuted) return failedCheckReason(`reasoning effort ${effort} refuted`, refuted);
  const reasonedOnNone = effort === 'none' ? withheld(input.verdicts, endpoint.id, 'reasoning_none') : undefined;
  return reasonedOnNone ? failedCheckReason('reasoning effort none refuted: reasoning appeared in the reply', reasonedOnNone) : null;
};

/** `modalities` naming image or audio is a routing promise (rule 12). */
const outputModalities: EligibilityRule = ({ endpoint, input }) => {
  const missing = (input.request.outputModalities ?? []).filter((modality) => !endpoint.outputModalities.includes(modality));
  return missing.length > 0 ? `does not output ${missing.join(', ')}` : null;
};

/**
 * Call-ready dispatch needs the declaration and a current positive check (chat stream item 6):
 * the latest check passed, on what the endpoint serves now, under the checks this instance runs.
 */
const toolDispatch: EligibilityRule = ({ endpoint, input }) => {
  if (!input.request.toolDispatch) return null;
  if (!endpoint.toolCallDispatch) return 'does not declare tool_call_dispatch';
  const latest = input.verdicts.latest(endpoint.id, 'tool_call_dispatch');
  if (latest && !latest.passed) return failedCheckReason('tool_call_dispatch withheld', latest);
  const current = latest?.revision === servingRevision(endpoint) && latest.probeVersion === input.verdicts.probeVersion;
  return current ? null : 'tool_call_dispatch has no current positive check';
};

/** Members only the text-completions wire carries. */
const TEXT_WIRE_MEMBERS = ['echo', 'suffix', 'logprobs'];

/** A text prompt using a member only the text-completions wire carries needs an endpoint serving that wire. */
const textWire: EligibilityRule = ({ endpoint, input }) => {
  const { request } = input;
  if (request.prompt === undefined || endpoint.textCompletions) return null;
  const members = TEXT_WIRE_MEMBERS.filter((name) => name in request.parameters);
  return members.length > 0 ? `does not serve the text-completions wire (needed for ${members.join(', ')})` : null;
};

export const CAPABILITY_RULES: readonly EligibilityRule[] = [
  declaredParameters,
  reasoningDeclared,
  effortMatches,
  outputModalities,
  toolDispatch,
  textWire,
];
