import type { ReplyMeta } from './reply-meta.js';
import type { ReplyPlan } from './reply-plan.js';
import { anthropicUsage, messageBlocks, stopReason, type SimBlock } from './messages-blocks.js';

function wholeBlock(block: SimBlock): Record<string, unknown> {
  switch (block.type) {
    case 'thinking':
      return { type: 'thinking', thinking: block.text, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'text':
      return { type: 'text', text: block.tokens.join('') };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: JSON.parse(block.arguments) as unknown };
  }
}

export interface MessageShape {
  meta: ReplyMeta;
  nativeFinish: string | undefined;
  withUsage: boolean;
}

/** The non-streamed `message` body of a plan, shaped as Anthropic's. */
export function messageBody(plan: ReplyPlan, shape: MessageShape): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: shape.meta.id,
    type: 'message',
    role: 'assistant',
    model: shape.meta.model,
    content: messageBlocks(plan).map(wholeBlock),
    stop_reason: stopReason(plan, shape.nativeFinish),
    stop_sequence: plan.stopSequence ?? null,
  };
  if (shape.withUsage) body.usage = anthropicUsage(plan);
  return body;
}
