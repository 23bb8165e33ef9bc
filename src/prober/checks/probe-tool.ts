import type { EndpointEntry } from '../../catalogue/types.js';
import { jsonObject } from '../chat-reply.js';

export const PROBE_TOOL_NAME = 'probe_lookup';

/** The one tool a tools probe declares. */
export const PROBE_TOOLS = [{
  type: 'function',
  function: {
    name: PROBE_TOOL_NAME,
    description: 'Looks a word up.',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
}];

export const PROBE_TOOL_PROMPT = `Call ${PROBE_TOOL_NAME} to look up the word "switchyard".`;

/**
 * The request members asking for a call of the probe tool: forced by naming it in `tool_choice`
 * where the endpoint declares `tool_choice`, else left to the model (`auto`), since an undeclared
 * `tool_choice` would not be routed there.
 */
export function toolAsk(endpoint: EndpointEntry): Record<string, unknown> {
  const forced = endpoint.supportedParameters.has('tool_choice');
  return {
    messages: [{ role: 'user', content: PROBE_TOOL_PROMPT }],
    tools: PROBE_TOOLS,
    ...(forced && { tool_choice: { type: 'function', function: { name: PROBE_TOOL_NAME } } }),
  };
}

/** Why a call is not a parseable call of the declared tool; undefined when it is. */
export function callProblem(call: { name: string; arguments: string }): string | undefined {
  if (call.name !== PROBE_TOOL_NAME) return `called ${call.name}, which the request did not declare`;
  if (!jsonObject(call.arguments === '' ? '{}' : call.arguments)) return `the arguments of ${PROBE_TOOL_NAME} are not a JSON object`;
  return undefined;
}
