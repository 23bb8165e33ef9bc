import type { CoreRequest } from './request.js';

/**
 * Whether the caller asked for at most one tool call per turn. Every dialect writes that ask the
 * same way, as the member `parallel_tool_calls: false`: chat among `parameters` (a setting routing
 * requires a declaration for, spec 01 rule 2), the messages dialect
 * (`tool_choice.disable_parallel_tool_use: true`) and the responses dialect (advisory) among
 * `softParameters`. Adapters ask here rather than reading one of the two places.
 */
export function singleToolCallAsked(request: CoreRequest): boolean {
  return request.parameters.parallel_tool_calls === false || request.softParameters.parallel_tool_calls === false;
}
