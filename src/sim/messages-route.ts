import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SimBehaviour } from './behaviour.js';
import { resolveBehaviour } from './behaviour.js';
import type { ParsedBody } from './chat-route.js';
import { isPlainObject } from '../core/plain-object.js';
import { lastUserText, messageList } from './message-text.js';
import { sendAnthropicError } from './messages-error.js';
import { messageStreamFrames } from './messages-events.js';
import { planningBody } from './messages-planning.js';
import { messageBody, type MessageShape } from './messages-reply.js';
import { paramProblem } from './param-check.js';
import { planReply } from './reply-plan.js';
import { scriptStream } from './stream-script.js';
import { toolCallId } from './tool-call-plan.js';
import { writeStream } from './stream-writer.js';
import { replyWhole } from './whole-reply.js';

/** Behaviours of the OpenAI-compatible wire that have no counterpart on this one. */
function unspokenBehaviour(behaviour: SimBehaviour): string | undefined {
  if (behaviour.image) return 'image';
  if (behaviour.audioSeconds !== undefined) return 'audio';
  if (behaviour.dispatch) return 'dispatch';
  return undefined;
}

async function replyFailure(res: ServerResponse, behaviour: SimBehaviour, status: number): Promise<void> {
  if (behaviour.ttftMs) await sleep(behaviour.ttftMs);
  if (res.destroyed) return;
  const headers: Record<string, string> = behaviour.retryAfter === undefined ? {} : { 'retry-after': behaviour.retryAfter };
  sendAnthropicError(res, status, status === 529 ? 'Overloaded' : `simulated failure ${status}`, headers);
}

export interface MessagesCall {
  /** The request's number since the simulator started; ids derive from it. */
  sequence: number;
  headers: Record<string, string>;
}

/**
 * `POST /v1/messages`: the Anthropic Messages wire over the same planners as the chat wire, so a
 * behaviour answers alike on both: the model name and `[[sim …]]` directives in the last user text.
 * As the real API, it needs the `anthropic-version` header.
 */
export async function handleMessages(res: ServerResponse, parsed: ParsedBody, { sequence, headers }: MessagesCall): Promise<void> {
  if (!headers['anthropic-version']) return sendAnthropicError(res, 400, 'anthropic-version: header is required');
  if (!parsed.ok || !isPlainObject(parsed.value)) return sendAnthropicError(res, 400, 'There was an issue with the formatting of your request: the body is not JSON');
  const body = parsed.value;
  const model = body.model;
  if (typeof model !== 'string' || model === '') return sendAnthropicError(res, 400, 'model: Field required');
  const planning = planningBody(body);
  if (!planning.ok) return sendAnthropicError(res, 400, planning.problem);
  const resolved = resolveBehaviour(model, lastUserText(messageList(planning.body)));
  if (!resolved.ok) return sendAnthropicError(res, 400, resolved.problem);
  const behaviour = resolved.behaviour;
  const unspoken = unspokenBehaviour(behaviour);
  if (unspoken) return sendAnthropicError(res, 400, `simulator behaviour ${unspoken} is not spoken on the Anthropic Messages wire`);
  const problem = paramProblem(body, behaviour);
  if (problem) return sendAnthropicError(res, 400, `${problem.param}: ${problem.message}`);
  if (behaviour.errorStatus !== undefined) return replyFailure(res, behaviour, behaviour.errorStatus);
  const plan = planReply({ body: planning.body, behaviour, sequence, created: Math.floor(Date.now() / 1000) });
  if (behaviour.echo) plan.content = [JSON.stringify(body)];
  plan.toolCalls.forEach((call, position) => { call.id = toolCallId(`toolu_sim${sequence}`, position); });
  const shape: MessageShape = { meta: { id: `msg_sim${sequence}`, created: 0, model }, nativeFinish: behaviour.nativeFinish, withUsage: behaviour.usage };
  if (body.stream !== true) {
    return replyWhole(res, plan, behaviour, {
      body: () => messageBody(plan, shape),
      sendError: sendAnthropicError,
      brokenBody: '{"id": "msg_broken", "type": "message", "content": [',
    });
  }
  return writeStream(res, scriptStream(messageStreamFrames(plan, shape), behaviour), behaviour);
}
