import type { CapabilityCheck } from './probe.js';
import { inputModalitiesCheck } from './checks/input-modalities.js';
import { reasoningEffortCheck, reasoningNoneCheck } from './checks/reasoning.js';
import { structuredOutputsCheck } from './checks/structured-outputs.js';
import { toolDispatchCheck } from './checks/tool-dispatch.js';
import { toolsCheck } from './checks/tools.js';

/**
 * Every capability check, one row per declared promise (spec 01 rules 1, 4, 5, 10 and call-ready
 * dispatch). Each decides from an endpoint's declarations which probes apply; a change to any of
 * them bumps PROBE_VERSION.
 */
export const CHECK_TABLE: readonly CapabilityCheck[] = [
  toolsCheck,
  structuredOutputsCheck,
  reasoningEffortCheck,
  reasoningNoneCheck,
  toolDispatchCheck,
  inputModalitiesCheck,
];
