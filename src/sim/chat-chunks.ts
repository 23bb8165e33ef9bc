import { dispatchFrames } from './dispatch-frames.js';
import type { DispatchBehaviour } from './behaviour.js';
import type { ReplyMeta } from './reply-meta.js';
import { usageBody } from './reply-meta.js';
import type { ReplyPlan } from './reply-plan.js';
import { DONE_FRAME, sseFrame } from './sse-frame.js';
import type { Delta } from './stream-deltas.js';
import { contentDeltas, toolHeaderInOpening } from './stream-deltas.js';

/** The SSE frames of a complete streamed reply, before any failure behaviour cuts them. */
export interface StreamFrames {
  /** The first chunk: role, and the tool call's id and name when no reasoning precedes it. */
  opening: string;
  /** One frame per reasoning token, content token, tool-argument, refusal or audio fragment, picture. */
  content: string[];
  /** Named `tool_call_dispatch` events sent after the content frames ('' = none). */
  dispatch: string;
  /** finish_reason chunk, optional usage chunk, then [DONE]. */
  closing: string;
  /** The in-band error a failing stream ends with; absent = the OpenAI-style error chunk. */
  failure?: string;
}

interface ChunkShape {
  meta: ReplyMeta;
  /** With `stream_options.include_usage`, OpenAI sends `usage: null` on every ordinary chunk. */
  usageNull: boolean;
}

function chunk(shape: ChunkShape, delta: Delta, finishReason: string | null, logprobs: unknown = null): string {
  const { meta } = shape;
  const body: Record<string, unknown> = {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, logprobs, finish_reason: finishReason }],
  };
  if (shape.usageNull) body.usage = null;
  return sseFrame(body);
}

/** Text answers open with content ''; answers that carry no text deltas open with content null. */
function openingDelta(plan: ReplyPlan): Delta {
  const call = plan.toolCalls[0];
  if (call && toolHeaderInOpening(plan)) {
    return {
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      refusal: null,
    };
  }
  const textless = plan.toolCalls.length > 0 || plan.refusal || plan.audio || (plan.image !== undefined && plan.content.length === 0);
  return { role: 'assistant', content: textless ? null : '', refusal: null };
}

export interface StreamOptions {
  withUsage: boolean;
  dispatch: DispatchBehaviour | undefined;
  /** Every tool call's header before the argument fragments, which alternate between calls. */
  interleave: boolean;
}

export function buildStreamFrames(plan: ReplyPlan, meta: ReplyMeta, options: StreamOptions): StreamFrames {
  const shape: ChunkShape = { meta, usageNull: options.withUsage };
  let answerToken = 0;
  const content = contentDeltas(plan, options.interleave).map((delta) => {
    const entry = typeof delta.content === 'string' ? plan.logprobs?.[answerToken++] : undefined;
    return chunk(shape, delta, null, entry ? { content: [entry], refusal: null } : null);
  });
  let closing = chunk(shape, {}, plan.finishReason);
  if (options.withUsage) {
    closing += sseFrame({
      id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model,
      choices: [], usage: usageBody(plan),
    });
  }
  const dispatch = plan.toolCalls.length > 0 && options.dispatch ? dispatchFrames(plan.toolCalls, options.dispatch) : '';
  return { opening: chunk(shape, openingDelta(plan), null), content, dispatch, closing: closing + DONE_FRAME };
}
