import type { StreamFrames } from './chat-chunks.js';
import type { ReplyPlan } from './reply-plan.js';
import { anthropicUsage, messageBlocks, stopReason, type SimBlock } from './messages-blocks.js';
import { MID_STREAM_ERROR_EVENT } from './messages-error.js';
import type { MessageShape } from './messages-reply.js';
import { namedSseFrame } from './sse-frame.js';

function event(data: Record<string, unknown> & { type: string }): string {
  return namedSseFrame(data.type, data);
}

function startBlock(block: SimBlock): Record<string, unknown> {
  switch (block.type) {
    case 'thinking':
      return { type: 'thinking', thinking: '' };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'text':
      return { type: 'text', text: '' };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: {} };
  }
}

function deltas(block: SimBlock): Array<Record<string, unknown>> {
  switch (block.type) {
    case 'thinking':
      return block.tokens.map((thinking) => ({ type: 'thinking_delta', thinking }));
    case 'redacted_thinking':
      return [];
    case 'text':
      return block.tokens.map((text) => ({ type: 'text_delta', text }));
    case 'tool_use':
      return block.fragments.map((partial_json) => ({ type: 'input_json_delta', partial_json }));
  }
}

/**
 * One content frame per delta: the block's start rides on its first, its stop (after the
 * signature, for thinking) on its last, so failure behaviours can cut a block open.
 */
function blockFrames(block: SimBlock, index: number): string[] {
  const start = event({ type: 'content_block_start', index, content_block: startBlock(block) });
  let stop = event({ type: 'content_block_stop', index });
  if (block.type === 'thinking') stop = event({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }) + stop;
  const pieces = deltas(block).map((delta) => event({ type: 'content_block_delta', index, delta }));
  if (pieces.length === 0) return [start + stop];
  return pieces.map((piece, i) => (i === 0 ? start : '') + piece + (i === pieces.length - 1 ? stop : ''));
}

/** The Anthropic Messages event sequence of a plan, in the frame groups the stream scripter cuts. */
export function messageStreamFrames(plan: ReplyPlan, shape: MessageShape): StreamFrames {
  const usage = anthropicUsage(plan);
  const message: Record<string, unknown> = {
    id: shape.meta.id, type: 'message', role: 'assistant', model: shape.meta.model,
    content: [], stop_reason: null, stop_sequence: null,
  };
  // Nothing is generated yet when the message starts: the output count is the wire's placeholder 1.
  if (shape.withUsage) {
    const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens } = usage;
    message.usage = { input_tokens, cache_creation_input_tokens, cache_read_input_tokens, output_tokens: 1 };
  }
  const opening = event({ type: 'message_start', message }) + event({ type: 'ping' });
  const content = messageBlocks(plan).flatMap(blockFrames);
  const delta: Record<string, unknown> = { type: 'message_delta', delta: { stop_reason: stopReason(plan, shape.nativeFinish), stop_sequence: plan.stopSequence ?? null } };
  if (shape.withUsage) delta.usage = usage;
  const closing = event(delta as Record<string, unknown> & { type: string }) + event({ type: 'message_stop' });
  return { opening, content, dispatch: '', closing, failure: MID_STREAM_ERROR_EVENT };
}
