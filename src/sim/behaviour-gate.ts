import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SimBehaviour } from './behaviour.js';
import { resolveBehaviour } from './behaviour.js';
import { sendError } from './json-reply.js';
import { paramProblem } from './param-check.js';

export interface GatedRequest {
  model: string;
  /** The text `[[sim …]]` directives are read from (the prompt). */
  text: string;
  /** The request's members as the wire named them, for refuse_param and require_param. */
  members: Record<string, unknown>;
}

/**
 * What the whole-reply media routes (image generation, transcription) do before answering, in the
 * order the chat route does it: behaviours from the model name and `[[sim …]]` directives in the
 * prompt (an unknown key is 400 naming `model`); `refuse_param` / `require_param` answered with 400
 * naming the member; `ttft=MS` waited; then `error=STATUS` (with `retry_after=S`) before any byte,
 * and `disconnect_after=N` dropping the connection without an answer (no reply has pieces to count).
 * Returns the behaviour to answer with, or undefined when the exchange is already over.
 */
export async function passBehaviourGate(res: ServerResponse, request: GatedRequest): Promise<SimBehaviour | undefined> {
  const resolved = resolveBehaviour(request.model, request.text);
  if (!resolved.ok) {
    sendError(res, 400, resolved.problem, { param: 'model', code: 'invalid_simulator_behaviour' });
    return undefined;
  }
  const behaviour = resolved.behaviour;
  const problem = paramProblem(request.members, behaviour);
  if (problem) {
    sendError(res, 400, problem.message, { param: problem.param, code: problem.code });
    return undefined;
  }
  if (behaviour.ttftMs) await sleep(behaviour.ttftMs);
  if (res.destroyed) return undefined;
  if (behaviour.errorStatus !== undefined) {
    const headers: Record<string, string> = behaviour.retryAfter === undefined ? {} : { 'retry-after': behaviour.retryAfter };
    sendError(res, behaviour.errorStatus, `simulated failure ${behaviour.errorStatus}`, { headers });
    return undefined;
  }
  if (behaviour.disconnectAfter !== undefined) {
    res.destroy();
    return undefined;
  }
  return behaviour;
}
