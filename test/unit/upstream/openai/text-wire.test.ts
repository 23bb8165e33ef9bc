import { describe, expect, it } from 'vitest';
import { openAiAdapter } from '../../../../src/upstream/openai/adapter.js';
import { OpenAiStreamDecoder } from '../../../../src/upstream/openai/stream.js';
import type { CoreRequest } from '../../../../src/core/request.js';
import type { PlannedAttempt } from '../../../../src/core/plan.js';
import { catalogueDocument, endpointDocument, validCatalogue } from '../../../fixtures/catalogue/documents.js';

function attempt(textCompletions: boolean): PlannedAttempt {
  const catalogue = validCatalogue(catalogueDocument([endpointDocument({ text_completions: textCompletions, supported_parameters: ['max_tokens', 'echo'] })]));
  const endpoint = catalogue.endpoints.get('sim-alpha/acme/chat');
  const model = catalogue.models.get('acme/chat');
  if (!endpoint || !model) throw new Error('catalogue fixture missing');
  return { model, modelId: 'acme/chat', endpoint, promptTokens: 5, ceiling: 16, heldCeiling: 16 };
}

const textRequest: CoreRequest = {
  models: ['acme/chat'],
  messages: [{ role: 'user', content: 'Once upon' }],
  prompt: 'Once upon',
  stream: true,
  parameters: { echo: true },
  softParameters: {},
  passthrough: {},
  attribution: {},
};

const LOGPROBS = { tokens: ['Hel', 'lo'], token_logprobs: [-0.1, -0.2], top_logprobs: [{ Hel: -0.1, Hi: -2.5 }, { lo: -0.2 }], text_offset: [0, 3] };

describe('the text-completions wire of the OpenAI-compatible adapter', () => {
  it('a text prompt goes to /completions where the endpoint serves that wire, as the one user turn elsewhere', () => {
    const text = openAiAdapter.buildRequest(textRequest, attempt(true));
    expect(text.path).toBe('/completions');
    expect(text.body).toEqual({ model: 'chat', prompt: 'Once upon', echo: true, stream: true, stream_options: { include_usage: true }, max_tokens: 16 });
    const chat = openAiAdapter.buildRequest(textRequest, attempt(false));
    expect(chat.path).toBe('/chat/completions');
    expect(chat.body.messages).toEqual([{ role: 'user', content: 'Once upon' }]);
    expect(chat.body).not.toHaveProperty('prompt');
  });

  it('a whole text_completion reply decodes to text, log-probabilities, finish and usage', () => {
    const events = openAiAdapter.decodeReply({
      id: 'cmpl-1',
      object: 'text_completion',
      choices: [{ index: 0, text: 'Hello', logprobs: LOGPROBS, finish_reason: 'length' }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    expect(events.map((event) => event.type)).toEqual(['meta', 'text.start', 'text.delta', 'text.end', 'logprobs', 'finish', 'usage']);
    expect(events.find((event) => event.type === 'logprobs')).toEqual({
      type: 'logprobs',
      index: 0,
      tokens: [
        { token: 'Hel', logprob: -0.1, top: [{ token: 'Hel', logprob: -0.1 }, { token: 'Hi', logprob: -2.5 }] },
        { token: 'lo', logprob: -0.2, top: [{ token: 'lo', logprob: -0.2 }] },
      ],
    });
    expect(events.find((event) => event.type === 'finish')).toEqual({ type: 'finish', reason: 'length', raw: 'length' });
  });

  it('streamed text_completion frames decode like chat deltas', () => {
    const decoder = new OpenAiStreamDecoder();
    const frames = [
      { id: 'cmpl-1', object: 'text_completion', choices: [{ index: 0, text: 'Hel', logprobs: null, finish_reason: null }] },
      { id: 'cmpl-1', object: 'text_completion', choices: [{ index: 0, text: 'lo', logprobs: null, finish_reason: null }] },
      { id: 'cmpl-1', object: 'text_completion', choices: [{ index: 0, text: '', logprobs: null, finish_reason: 'stop' }] },
    ];
    const events = [...frames.flatMap((frame) => decoder.frame(JSON.stringify(frame))), ...decoder.frame('[DONE]'), ...decoder.end()];
    const text = events.flatMap((event) => (event.type === 'text.delta' ? [event.text] : [])).join('');
    expect(text).toBe('Hello');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop', raw: 'stop' });
  });

  it('a token whose figure is missing (an echoed first prompt token) is skipped', () => {
    const events = openAiAdapter.decodeReply({
      choices: [{ text: 'AB', logprobs: { tokens: ['A', 'B'], token_logprobs: [null, -0.5], top_logprobs: [null, { B: -0.5 }], text_offset: [0, 1] }, finish_reason: 'stop' }],
    });
    const logprobs = events.find((event) => event.type === 'logprobs');
    expect(logprobs?.type === 'logprobs' && logprobs.tokens.map((token) => token.token)).toEqual(['B']);
  });
});
