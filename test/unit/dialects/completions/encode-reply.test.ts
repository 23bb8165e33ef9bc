import { describe, expect, it } from 'vitest';
import { collectReply } from '../../../../src/core/collect.js';
import type { CoreEvent } from '../../../../src/core/events.js';
import { encodeCompletionsReply } from '../../../../src/dialects/completions/encode-reply.js';

const META = { id: 'gen-abc', created: 1, model: 'acme/base', provider: 'Sim A' };

function choiceOf(events: CoreEvent[]): unknown {
  const reply = encodeCompletionsReply(collectReply(events), META, { usage: { promptTokens: 3, completionTokens: 5 }, cost: 0 });
  return (reply.choices as unknown[])[0];
}

describe('completions reply encoder', () => {
  it('a refusal is the completion text, ending with content_filter', () => {
    expect(choiceOf([
      { type: 'text.start', index: 0 },
      { type: 'refusal.delta', index: 0, text: "I can't help with that." },
      { type: 'text.end', index: 0 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
    ])).toEqual({ index: 0, text: "I can't help with that.", logprobs: null, finish_reason: 'content_filter' });
  });

  it('an ordinary answer keeps its text and finish', () => {
    expect(choiceOf([
      { type: 'text.start', index: 0 },
      { type: 'text.delta', index: 0, text: 'Mild.' },
      { type: 'text.end', index: 0 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
    ])).toEqual({ index: 0, text: 'Mild.', logprobs: null, finish_reason: 'stop' });
  });
});
