import type { PlannedAttempt } from '../core/plan.js';
import type { CoreRequest } from '../core/request.js';
import { adapterFor } from '../upstream/registry.js';

/**
 * The `honoured` member beside `usage` on final stream chunks: for every optional member the caller
 * set that an endpoint's declarations judge, whether the serving endpoint honoured it (true) or it
 * was accepted and not applied there (false). Members that routing requires are always true, since
 * only declaring endpoints serve them; members sent only where declared are true where they were
 * (or where the serving wire carries them regardless, such as the Anthropic wire's one-call ask).
 * A member the serving endpoint's wire has no counterpart for is false wherever it was declared.
 */
export function honouredMembers(request: CoreRequest, attempt: PlannedAttempt): Record<string, boolean> {
  const declared = attempt.endpoint.supportedParameters;
  const adapter = adapterFor(attempt.endpoint.provider.api);
  const honoured: Record<string, boolean> = {};
  for (const name of Object.keys(request.parameters)) honoured[name] = true;
  for (const name of Object.keys(request.softParameters)) honoured[name] = declared.has(name) || adapter?.carriesUndeclared?.(name) === true;
  if (request.tools) honoured.tools = true;
  if (request.toolChoice !== undefined) honoured.tool_choice = true;
  if (request.reasoning?.effort !== undefined) honoured.reasoning = declared.has('reasoning') || declared.has('reasoning_effort');
  for (const name of request.ignored ?? []) honoured[name] = false;
  for (const name of Object.keys(honoured)) {
    if (adapter?.carries && !adapter.carries(name)) honoured[name] = false;
  }
  return honoured;
}
