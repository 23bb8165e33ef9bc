import { isPlainObject } from '../../core/plain-object.js';
import { sseFramesOf } from '../../upstream/sse-frames.js';
import { jsonObject } from '../chat-reply.js';
import { answersChat, judgeFailure, type CapabilityCheck, type Judgement, type ProbeReply } from '../probe.js';
import { callProblem, PROBE_TOOL_NAME, toolAsk } from './probe-tool.js';

/**
 * Call-ready tool dispatch (chat stream item 6): an endpoint declaring `tool_call_dispatch`, asked
 * for the probe tool in a stream with `include_tool_dispatch`, must send a `tool_call_dispatch`
 * event carrying the whole call, the same call (id) its ordinary tool-call fragments carry.
 */
export const toolDispatchCheck: CapabilityCheck = {
  name: 'tool-call dispatch',
  probes(endpoint) {
    if (!answersChat(endpoint) || !endpoint.toolCallDispatch || !endpoint.supportedParameters.has('tools')) return [];
    const body = { ...toolAsk(endpoint), max_tokens: 256, stream: true, stream_options: { include_tool_dispatch: true } };
    return [{ capability: 'tool_call_dispatch', body, judge: judgeDispatch }];
  },
};

export function judgeDispatch(reply: ProbeReply): Judgement {
  if (reply.kind === 'failed') return judgeFailure(reply);
  if (reply.kind !== 'stream') return { inconclusive: 'expected a stream' };
  const frames = sseFramesOf(reply.text);
  const streamedIds = new Set(frames.filter((frame) => frame.event === undefined).flatMap((frame) => fragmentIds(frame.data)));
  const dispatched = frames.filter((frame) => frame.event === 'tool_call_dispatch').map((frame) => dispatchedCall(frame.data));
  const call = dispatched[0];
  if (!call) return { passed: false, detail: `no tool_call_dispatch event in the stream${streamedIds.size > 0 ? ' (the call came only as fragments)' : ''}` };
  const problem = callProblem(call);
  if (problem) return { passed: false, detail: `the dispatched call: ${problem}` };
  if (!streamedIds.has(call.id)) return { passed: false, detail: `the dispatched call ${call.id} is not the call the stream's fragments carry` };
  return { passed: true, detail: `dispatched ${PROBE_TOOL_NAME} whole, matching the streamed call` };
}

function dispatchedCall(data: string): { id: string; name: string; arguments: string } {
  const call = memberObject(jsonObject(data), 'tool_call');
  const fn = memberObject(call, 'function');
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return { id: text(call.id), name: text(fn.name), arguments: text(fn.arguments) };
}

/** The ids of the tool-call fragments in one chunk. */
function fragmentIds(data: string): string[] {
  const chunk = jsonObject(data);
  const choices: unknown[] = Array.isArray(chunk?.choices) ? chunk.choices : [];
  return choices.flatMap((choice) => {
    const calls = memberObject(isPlainObject(choice) ? choice : undefined, 'delta').tool_calls;
    return Array.isArray(calls) ? calls.flatMap((call: unknown) => (isPlainObject(call) && typeof call.id === 'string' && call.id !== '' ? [call.id] : [])) : [];
  });
}

function memberObject(holder: Record<string, unknown> | undefined, name: string): Record<string, unknown> {
  const member = holder?.[name];
  return isPlainObject(member) ? member : {};
}
