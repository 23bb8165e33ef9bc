import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SimBehaviour } from './behaviour.js';
import { resolveBehaviour } from './behaviour.js';
import type { ParsedBody } from './chat-route.js';
import { completionBody, completionStreamFrames, type CompletionShape } from './completion-frames.js';
import { sendError, sendJson } from './json-reply.js';
import { isPlainObject } from '../core/plain-object.js';
import { paramProblem } from './param-check.js';
import { countTextPromptTokens } from './prompt-tokens.js';
import type { ReplyPlan } from './reply-plan.js';
import { planReply } from './reply-plan.js';
import { scriptStream } from './stream-script.js';
import { writeStream } from './stream-writer.js';

/** Non-streamed replies wait as the chat wire's do; stream-only failures have whole-reply counterparts. */
async function replyWhole(res: ServerResponse, plan: ReplyPlan, shape: CompletionShape): Promise<void> {
  const { behaviour } = shape;
  const generationMs = behaviour.tps ? (plan.completionTokens * 1000) / behaviour.tps : 0;
  const delay = (behaviour.ttftMs ?? 0) + generationMs;
  if (delay > 0) await sleep(delay);
  if (res.destroyed) return;
  if (behaviour.disconnectAfter !== undefined) res.destroy();
  else if (behaviour.failAfter !== undefined) sendError(res, 500, 'simulated failure 500');
  else if (behaviour.malformedAfter !== undefined) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"id": "cmpl-broken", "choices": [');
  } else sendJson(res, 200, completionBody(plan, shape));
}

async function replyFailure(res: ServerResponse, behaviour: SimBehaviour, status: number): Promise<void> {
  if (behaviour.ttftMs) await sleep(behaviour.ttftMs);
  if (res.destroyed) return;
  const headers: Record<string, string> = behaviour.retryAfter === undefined ? {} : { 'retry-after': behaviour.retryAfter };
  sendError(res, status, `simulated failure ${status}`, { headers });
}

function streamWantsUsage(body: Record<string, unknown>, behaviour: SimBehaviour): boolean {
  return behaviour.usage && isPlainObject(body.stream_options) && body.stream_options.include_usage === true;
}

/**
 * `POST /v1/completions`: the OpenAI text-completions wire. Behaviours come from the model name and
 * `[[sim …]]` directives in the prompt; the answer is text only (the same tokens the chat wire
 * answers), `echo: true` puts the prompt before it, `logprobs: N` adds per-token figures with N
 * alternatives; `suffix` is accepted.
 */
export async function handleCompletion(res: ServerResponse, parsed: ParsedBody, sequence: number): Promise<void> {
  if (!parsed.ok || !isPlainObject(parsed.value)) return sendError(res, 400, 'We could not parse the JSON body of your request.');
  const body = parsed.value;
  const { model, prompt } = body;
  if (typeof model !== 'string' || model === '') return sendError(res, 400, 'you must provide a model parameter', { param: 'model' });
  if (typeof prompt !== 'string') return sendError(res, 400, 'prompt must be a string', { param: 'prompt' });
  const resolved = resolveBehaviour(model, prompt);
  if (!resolved.ok) return sendError(res, 400, resolved.problem, { param: 'model', code: 'invalid_simulator_behaviour' });
  const behaviour = resolved.behaviour;
  const problem = paramProblem(body, behaviour);
  if (problem) return sendError(res, 400, problem.message, { param: problem.param, code: problem.code });
  if (behaviour.errorStatus !== undefined) return replyFailure(res, behaviour, behaviour.errorStatus);
  const created = Math.floor(Date.now() / 1000);
  const planning = { ...body, messages: [{ role: 'user', content: prompt }] };
  const plan = { ...planReply({ body: planning, behaviour: { ...behaviour, tools: false }, sequence, created }), promptTokens: behaviour.promptTokens ?? countTextPromptTokens(prompt) };
  const shape: CompletionShape = {
    meta: { id: `cmpl-sim${sequence}`, created, model },
    echo: body.echo === true ? prompt : undefined,
    logprobs: typeof body.logprobs === 'number' ? body.logprobs : undefined,
    behaviour,
  };
  if (body.stream !== true) return replyWhole(res, plan, shape);
  return writeStream(res, scriptStream(completionStreamFrames(plan, shape, streamWantsUsage(body, behaviour)), behaviour), behaviour);
}
