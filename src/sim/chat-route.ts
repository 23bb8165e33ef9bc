import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SimBehaviour } from './behaviour.js';
import { resolveBehaviour } from './behaviour.js';
import { buildStreamFrames } from './chat-chunks.js';
import { chatCompletionBody } from './chat-completion.js';
import { sendError } from './json-reply.js';
import { isPlainObject } from '../core/plain-object.js';
import { lastUserText, messageList } from './message-text.js';
import type { ReplyMeta } from './reply-meta.js';
import { planReply } from './reply-plan.js';
import { paramProblem } from './param-check.js';
import { scriptStream } from './stream-script.js';
import { writeStream } from './stream-writer.js';
import { replyWhole } from './whole-reply.js';

/** A request body as read: parsed JSON, or a marker that it did not parse. */
export type ParsedBody = { ok: true; value: unknown } | { ok: false };

const UNPARSABLE = 'We could not parse the JSON body of your request.';

/** Streams carry a usage chunk only when asked, as OpenAI's do. */
function streamWantsUsage(body: Record<string, unknown>, behaviour: SimBehaviour): boolean {
  return behaviour.usage && isPlainObject(body.stream_options) && body.stream_options.include_usage === true;
}

async function replyFailure(res: ServerResponse, behaviour: SimBehaviour, status: number): Promise<void> {
  if (behaviour.ttftMs) await sleep(behaviour.ttftMs);
  if (res.destroyed) return;
  const headers: Record<string, string> = behaviour.retryAfter === undefined ? {} : { 'retry-after': behaviour.retryAfter };
  sendError(res, status, `simulated failure ${status}`, { headers });
}

/** refuse_param, require_param and refuse_input: answers 400 and returns false when the body breaks one. */
function checkParams(res: ServerResponse, body: Record<string, unknown>, behaviour: SimBehaviour): boolean {
  const problem = paramProblem(body, behaviour);
  if (problem) sendError(res, 400, problem.message, { param: problem.param, code: problem.code });
  return problem === undefined;
}

/** `POST /v1/chat/completions`: behaviours from the model name and the last user message. */
export async function handleChat(res: ServerResponse, parsed: ParsedBody, sequence: number): Promise<void> {
  if (!parsed.ok || !isPlainObject(parsed.value)) return sendError(res, 400, UNPARSABLE);
  const body = parsed.value;
  const model = body.model;
  if (typeof model !== 'string' || model === '') {
    return sendError(res, 400, 'you must provide a model parameter', { param: 'model' });
  }
  const resolved = resolveBehaviour(model, lastUserText(messageList(body)));
  if (!resolved.ok) return sendError(res, 400, resolved.problem, { param: 'model', code: 'invalid_simulator_behaviour' });
  const behaviour = resolved.behaviour;
  if (!checkParams(res, body, behaviour)) return;
  if (behaviour.errorStatus !== undefined) return replyFailure(res, behaviour, behaviour.errorStatus);
  const created = Math.floor(Date.now() / 1000);
  const plan = planReply({ body, behaviour, sequence, created });
  const meta: ReplyMeta = { id: `chatcmpl-sim${sequence}`, created, model };
  if (body.stream !== true) {
    return replyWhole(res, plan, behaviour, {
      body: () => chatCompletionBody(plan, meta, behaviour.usage),
      sendError,
      brokenBody: '{"id": "chatcmpl-broken", "choices": [',
    });
  }
  const frames = buildStreamFrames(plan, meta, { withUsage: streamWantsUsage(body, behaviour), dispatch: behaviour.dispatch, interleave: behaviour.interleave });
  return writeStream(res, scriptStream(frames, behaviour), behaviour);
}
