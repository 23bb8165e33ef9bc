import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../../src/core/events.js';
import { GatewayError } from '../../../../src/core/errors.js';
import type { CoreRequest } from '../../../../src/core/request.js';
import { CompletionsStreamWriter } from '../../../../src/dialects/completions/encode-stream.js';

const META = { id: 'gen-abc', created: 1, model: 'acme/base', provider: 'Sim A' };

function request(parameters: Record<string, unknown>): CoreRequest {
  return { models: ['acme/base'], messages: [], prompt: 'Hi', stream: true, parameters, softParameters: {}, passthrough: {}, attribution: {} };
}

function frames(parameters: Record<string, unknown>, events: CoreEvent[], end: (writer: CompletionsStreamWriter) => string): unknown[] {
  const writer = new CompletionsStreamWriter(META, request(parameters));
  const text = writer.open() + events.map((event) => writer.write(event)).join('') + end(writer);
  return text.split('\n\n').filter(Boolean).map((frame) => frame.slice('data: '.length)).map((data) => (data === '[DONE]' ? data : JSON.parse(data) as unknown));
}

const figures = (token: string) => ({ type: 'logprobs' as const, index: 0, tokens: [{ token, logprob: -0.5, top: [{ token, logprob: -0.5 }] }] });

describe('completions stream writer', () => {
  it('without logprobs asked, each text delta is its own frame at once', () => {
    const writer = new CompletionsStreamWriter(META, request({}));
    expect(writer.write({ type: 'text.delta', index: 0, text: 'Hel' })).toContain('"text":"Hel"');
  });

  it('with logprobs asked, a fragment travels with its figures; offsets count across frames', () => {
    const out = frames({ logprobs: 1 }, [
      { type: 'text.delta', index: 0, text: 'Hel' },
      figures('Hel'),
      { type: 'text.delta', index: 0, text: 'lo' },
      figures('lo'),
      { type: 'finish', reason: 'stop', raw: 'stop' },
    ], (writer) => writer.finish({ usage: { promptTokens: 2, completionTokens: 2 }, cost: 0.5, honoured: { logprobs: true } }));
    expect(out).toHaveLength(5);
    expect(out[0]).toMatchObject({ object: 'text_completion', choices: [{ text: 'Hel', logprobs: { tokens: ['Hel'], text_offset: [0], top_logprobs: [{ Hel: -0.5 }] } }] });
    expect(out[1]).toMatchObject({ choices: [{ text: 'lo', logprobs: { tokens: ['lo'], text_offset: [3] } }] });
    expect(out[2]).toMatchObject({ choices: [{ text: '', finish_reason: 'stop' }] });
    expect(out[3]).toMatchObject({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4, cost: 0.5 }, honoured: { logprobs: true } });
    expect(out[4]).toBe('[DONE]');
  });

  it('a fragment whose figures never come still goes out before the finish', () => {
    const out = frames({ logprobs: 1 }, [{ type: 'text.delta', index: 0, text: 'Hi' }, { type: 'finish', reason: 'length', raw: 'length' }], (writer) => writer.finish({ usage: undefined, cost: 0 }));
    expect(out[0]).toMatchObject({ choices: [{ text: 'Hi', logprobs: null, finish_reason: null }] });
    expect(out[1]).toMatchObject({ choices: [{ finish_reason: 'length' }] });
  });

  it('a refusal streams as the completion text and ends with content_filter', () => {
    const out = frames({}, [
      { type: 'text.start', index: 0 },
      { type: 'refusal.delta', index: 0, text: "I can't" },
      { type: 'refusal.delta', index: 0, text: ' help with that.' },
      { type: 'text.end', index: 0 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
    ], (writer) => writer.finish({ usage: undefined, cost: 0 }));
    expect(out.slice(0, 3)).toEqual([
      expect.objectContaining({ choices: [{ index: 0, text: "I can't", logprobs: null, finish_reason: null }] }),
      expect.objectContaining({ choices: [{ index: 0, text: ' help with that.', logprobs: null, finish_reason: null }] }),
      expect.objectContaining({ choices: [{ index: 0, text: '', logprobs: null, finish_reason: 'content_filter' }] }),
    ]);
  });

  it('a refusal cut by the ceiling still ends with length', () => {
    const out = frames({}, [{ type: 'refusal.delta', index: 0, text: 'I' }, { type: 'finish', reason: 'length', raw: 'length' }], (writer) => writer.finish({ usage: undefined, cost: 0 }));
    expect(out[1]).toMatchObject({ choices: [{ finish_reason: 'length' }] });
  });

  it('a failure is the chat error chunk with finish_reason error, then [DONE]', () => {
    const out = frames({}, [{ type: 'text.delta', index: 0, text: 'Hi' }], (writer) => writer.fail(new GatewayError('provider_failed', 'Sim A failed')));
    expect(out.at(-2)).toMatchObject({ choices: [{ finish_reason: 'error' }], error: { code: 502, message: 'Sim A failed', metadata: { error_type: 'provider_error' } } });
    // The same choice members as every other frame.
    expect((out.at(-2) as { choices: unknown[] }).choices).toEqual([{ index: 0, text: '', logprobs: null, finish_reason: 'error' }]);
    expect(out.at(-1)).toBe('[DONE]');
  });
});
