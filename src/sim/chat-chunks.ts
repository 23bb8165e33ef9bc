import type { ReplyMeta } from './reply-meta.js';
import { usageBody } from './reply-meta.js';
import type { ReplyPlan } from './reply-plan.js';
import { DONE_FRAME, sseFrame } from './sse-frame.js';

/** The SSE frames of a complete streamed reply, before any failure behaviour cuts them. */
export interface StreamFrames {
  /** The first chunk: role, and the tool call's id and name when there is one. */
  opening: string;
  /** One frame per content token or tool-argument fragment. */
  content: string[];
  /** finish_reason chunk, optional usage chunk, then [DONE]. */
  closing: string;
}

interface ChunkShape {
  meta: ReplyMeta;
  /** With `stream_options.include_usage`, OpenAI sends `usage: null` on every ordinary chunk. */
  usageNull: boolean;
}

function chunk(shape: ChunkShape, delta: Record<string, unknown>, finishReason: string | null): string {
  const { meta } = shape;
  const body: Record<string, unknown> = {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
  if (shape.usageNull) body.usage = null;
  return sseFrame(body);
}

function openingDelta(plan: ReplyPlan): Record<string, unknown> {
  const call = plan.toolCall;
  if (!call) return { role: 'assistant', content: '', refusal: null };
  return {
    role: 'assistant',
    content: null,
    tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
    refusal: null,
  };
}

export function buildStreamFrames(plan: ReplyPlan, meta: ReplyMeta, withUsage: boolean): StreamFrames {
  const shape: ChunkShape = { meta, usageNull: withUsage };
  const content = plan.toolCall
    ? plan.toolCall.fragments.map((args) => chunk(shape, { tool_calls: [{ index: 0, function: { arguments: args } }] }, null))
    : plan.content.map((token) => chunk(shape, { content: token }, null));
  let closing = chunk(shape, {}, plan.finishReason);
  if (withUsage) {
    closing += sseFrame({
      id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model,
      choices: [], usage: usageBody(plan),
    });
  }
  return { opening: chunk(shape, openingDelta(plan), null), content, closing: closing + DONE_FRAME };
}
