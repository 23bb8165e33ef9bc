import { describe, expect, it } from 'vitest';
import { ChatStreamWriter } from '../../../../src/dialects/chat/encode-stream.js';

const META = { id: 'gen-1', created: 1700000000, model: 'acme/chat "quoted"', provider: 'Sim \u00e9' };

function parsed(frame: string): unknown {
  expect(frame.startsWith('data: ')).toBe(true);
  expect(frame.endsWith('\n\n')).toBe(true);
  return JSON.parse(frame.slice('data: '.length, -2));
}

describe('chat stream frames', () => {
  it('text deltas are full chunks: the role on the first, the content escaped exactly', () => {
    const writer = new ChatStreamWriter(META);
    const head = { id: 'gen-1', object: 'chat.completion.chunk', created: 1700000000, model: 'acme/chat "quoted"', provider: 'Sim \u00e9' };
    expect(parsed(writer.write({ type: 'text.delta', index: 0, text: 'Hi' }))).toEqual({
      ...head,
      choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }],
    });
    const text = 'line\n"two"\u2028\\ \ud83d\ude00';
    expect(parsed(writer.write({ type: 'text.delta', index: 0, text }))).toEqual({
      ...head,
      choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
    });
  });
});
