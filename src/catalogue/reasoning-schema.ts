import type { MappingReader } from './mapping-reader.js';
import { REASONING_EFFORTS, type ReasoningDomain, type ReasoningEffort } from './types.js';

const REASONING_FIELDS = ['supported_efforts', 'mandatory', 'default_effort', 'default_enabled', 'supports_max_tokens'];

/** Effort levels strongest first, the order a declared list must follow. */
export const EFFORTS_STRONGEST_FIRST: readonly ReasoningEffort[] = [...REASONING_EFFORTS].reverse();

/** An endpoint's `reasoning` mapping; null (an unknown domain) when the field is absent. */
export function readReasoning(fields: MappingReader): ReasoningDomain | null {
  const reasoning = fields.mapping('reasoning', REASONING_FIELDS, true);
  if (!reasoning) return null;
  const domain: ReasoningDomain = {};
  const efforts = readSupportedEfforts(reasoning);
  if (efforts !== null) domain.supportedEfforts = efforts;
  const defaultEffort = readDefaultEffort(reasoning, efforts);
  if (defaultEffort !== null) domain.defaultEffort = defaultEffort;
  const mandatory = reasoning.optionalBoolean('mandatory');
  if (mandatory !== null) domain.mandatory = mandatory;
  const defaultEnabled = reasoning.optionalBoolean('default_enabled');
  if (defaultEnabled !== null) domain.defaultEnabled = defaultEnabled;
  if (mandatory === true && defaultEnabled === false) {
    reasoning.problem('default_enabled', 'must not be false when mandatory is true');
  }
  const supportsMaxTokens = reasoning.optionalBoolean('supports_max_tokens');
  if (supportsMaxTokens !== null) domain.supportsMaxTokens = supportsMaxTokens;
  return domain;
}

/** `supported_efforts`: known levels, at least one, strongest first; null when not declared. */
function readSupportedEfforts(reasoning: MappingReader): ReasoningEffort[] | null {
  if (!reasoning.has('supported_efforts')) return null;
  const raw = reasoning.raw('supported_efforts');
  const listed = reasoning.stringList('supported_efforts', { allowed: REASONING_EFFORTS });
  if (Array.isArray(raw) && raw.length === 0) {
    reasoning.problem('supported_efforts', 'must name at least one effort (leave it out when the levels are unknown)');
  }
  const efforts = EFFORTS_STRONGEST_FIRST.filter((effort) => listed.includes(effort));
  if (efforts.some((effort, index) => effort !== listed[index])) {
    reasoning.problem('supported_efforts', `must list efforts strongest first (${EFFORTS_STRONGEST_FIRST.join(', ')})`);
  }
  return efforts;
}

function readDefaultEffort(reasoning: MappingReader, efforts: ReasoningEffort[] | null): ReasoningEffort | null {
  if (!reasoning.has('default_effort')) return null;
  const effort = reasoning.choice('default_effort', REASONING_EFFORTS);
  if (effort !== null && efforts !== null && efforts.length > 0 && !efforts.includes(effort)) {
    reasoning.problem('default_effort', `must be one of supported_efforts (${efforts.join(', ')})`);
  }
  return effort;
}
