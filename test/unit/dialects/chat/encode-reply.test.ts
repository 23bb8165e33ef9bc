import { describe, expect, it } from 'vitest';
import { collectReply } from '../../../../src/core/collect.js';
import type { CoreEvent, ReasoningKind } from '../../../../src/core/events.js';
import { encodeChatReply } from '../../../../src/dialects/chat/encode-reply.js';

const META = { id: 'gen-abc', created: 1, model: 'acme/chat', provider: 'Sim A' };

function messageOf(events: CoreEvent[]): Record<string, unknown> {
  const reply = encodeChatReply(collectReply(events), META, { usage: undefined, cost: 0 });
  const [choice] = reply.choices as Array<{ message: Record<string, unknown> }>;
  return choice?.message ?? {};
}

function reasoningBlock(index: number, kind: ReasoningKind, text: string): CoreEvent[] {
  return [{ type: 'reasoning.start', index, kind }, { type: 'reasoning.delta', index, kind, text }, { type: 'reasoning.end', index }];
}

describe('chat reply encoder', () => {
  it('reasoning from several blocks reads as paragraphs separated by a blank line; opaque blobs add nothing', () => {
    const message = messageOf([
      ...reasoningBlock(0, 'text', 'The user asks about Paris.'),
      ...reasoningBlock(1, 'summary', 'Looked up the forecast.'),
      ...reasoningBlock(2, 'encrypted', 'ZW5j'),
      ...reasoningBlock(3, 'text', ''),
      { type: 'finish', reason: 'stop', raw: 'stop' },
    ]);
    expect(message.reasoning).toBe('The user asks about Paris.\n\nLooked up the forecast.');
    expect(message.reasoning_details).toHaveLength(4);
  });

  it('one reasoning block is its fragments joined as they came', () => {
    const message = messageOf([
      { type: 'reasoning.start', index: 0, kind: 'text' },
      { type: 'reasoning.delta', index: 0, kind: 'text', text: 'Let' },
      { type: 'reasoning.delta', index: 0, kind: 'text', text: ' me think' },
      { type: 'reasoning.end', index: 0 },
    ]);
    expect(message.reasoning).toBe('Let me think');
  });
});
