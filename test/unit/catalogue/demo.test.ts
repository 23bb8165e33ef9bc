import { describe, expect, test } from 'vitest';
import { demoCatalogueYaml } from '../../../src/catalogue/demo.js';
import { parseCatalogueText } from '../../../src/catalogue/loader.js';
import { isFreeEndpoint } from '../../../src/billing/price-ceiling.js';

describe('demo catalogue', () => {
  const result = parseCatalogueText(demoCatalogueYaml('http://127.0.0.1:43210/'), 'demo');
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  const { catalogue } = result;

  test('is valid and points every provider at the simulator, over the openai wire and the anthropic one', () => {
    expect([...catalogue.providers.values()].map((p) => [p.slug, p.name, p.api, p.baseUrl])).toEqual([
      ['sim-alpha', 'Sim Alpha', 'openai', 'http://127.0.0.1:43210/v1'],
      ['sim-beta', 'Sim Beta', 'openai', 'http://127.0.0.1:43210/v1'],
      ['sim-gamma', 'Sim Gamma', 'anthropic', 'http://127.0.0.1:43210/v1'],
    ]);
  });

  test('demo-messages is served over the anthropic wire, with a thinking budget accepted', () => {
    const endpoints = catalogue.models.get('switchyard/demo-messages')?.endpoints ?? [];
    expect(endpoints.map((e) => [e.id, e.provider.api, e.upstreamModel])).toEqual([['sim-gamma/switchyard/demo-messages', 'anthropic', 'claude;reasoning=16;tps=400']]);
    expect(endpoints[0]?.supportedParameters.has('reasoning')).toBe(true);
    expect(endpoints[0]?.reasoning?.supportsMaxTokens).toBe(true);
  });

  test('demo-chat has two endpoints, alpha the cheaper, both taking the common chat parameters', () => {
    const endpoints = catalogue.models.get('switchyard/demo-chat')?.endpoints ?? [];
    expect(endpoints.map((e) => e.id)).toEqual(['sim-alpha/switchyard/demo-chat', 'sim-beta/switchyard/demo-chat']);
    const [alpha, beta] = endpoints;
    expect((alpha?.pricing.prices.prompt?.units ?? 0n) < (beta?.pricing.prices.prompt?.units ?? 0n)).toBe(true);
    for (const endpoint of endpoints) {
      for (const parameter of ['max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'tools', 'tool_choice', 'response_format']) {
        expect(endpoint.supportedParameters.has(parameter)).toBe(true);
      }
    }
  });

  test('every chat model on the OpenAI-compatible wire declares each setting the simulator takes', () => {
    const settings = ['parallel_tool_calls', 'frequency_penalty', 'presence_penalty', 'repetition_penalty', 'top_k', 'min_p', 'logit_bias', 'logprobs', 'top_logprobs', 'seed', 'response_format'];
    for (const id of ['switchyard/demo-chat', 'switchyard/demo-fast', 'switchyard/demo-think']) {
      for (const endpoint of catalogue.models.get(id)?.endpoints ?? []) {
        expect(settings.filter((name) => !endpoint.supportedParameters.has(name))).toEqual([]);
        expect(endpoint.supportedParameters.has('structured_outputs')).toBe(false);
      }
    }
  });

  test('demo-messages declares the settings its Anthropic wire carries: top_k and parallel_tool_calls', () => {
    const [messages] = catalogue.models.get('switchyard/demo-messages')?.endpoints ?? [];
    expect(messages?.supportedParameters.has('top_k')).toBe(true);
    expect(messages?.supportedParameters.has('parallel_tool_calls')).toBe(true);
    expect(messages?.supportedParameters.has('frequency_penalty')).toBe(false);
  });

  test('demo-chat answers typed-decision prompts with one of the offered labels', () => {
    const endpoints = catalogue.models.get('switchyard/demo-chat')?.endpoints ?? [];
    for (const endpoint of endpoints) expect(endpoint.upstreamModel.split(';')).toContain('labels');
  });

  test('demo-fast is paid on sim-alpha and free on sim-beta, so :free has an endpoint to keep', () => {
    const endpoints = catalogue.models.get('switchyard/demo-fast')?.endpoints ?? [];
    expect(endpoints.map((e) => [e.id, isFreeEndpoint(e.pricing)])).toEqual([
      ['sim-alpha/switchyard/demo-fast', false],
      ['sim-beta/switchyard/demo-fast', true],
    ]);
    for (const endpoint of endpoints) expect(endpoint.upstreamModel).toMatch(/^chat(;[a-z_]+=\w+)*$/);
  });

  test('demo-chat on sim-beta is the dearer and the faster, so :floor and :nitro can disagree', () => {
    const [alpha, beta] = catalogue.models.get('switchyard/demo-chat')?.endpoints ?? [];
    const tps = (upstream = '') => Number(/tps=(\d+)/.exec(upstream)?.[1]);
    expect(tps(beta?.upstreamModel)).toBeGreaterThan(tps(alpha?.upstreamModel));
  });

  test('demo-think is a reasoning model on sim-alpha declaring reasoning controls and three effort levels', () => {
    const endpoints = catalogue.models.get('switchyard/demo-think')?.endpoints ?? [];
    expect(endpoints.map((e) => [e.id, e.upstreamModel])).toEqual([['sim-alpha/switchyard/demo-think', 'chat;reasoning=24']]);
    const [think] = endpoints;
    expect(think?.supportedParameters.has('reasoning')).toBe(true);
    expect(think?.supportedParameters.has('reasoning_effort')).toBe(true);
    expect(think?.reasoning).toEqual({ supportedEfforts: ['high', 'medium', 'low'], mandatory: false });
  });

  test('the chat models leave their reasoning domain unknown', () => {
    for (const id of ['switchyard/demo-chat', 'switchyard/demo-fast']) {
      for (const endpoint of catalogue.models.get(id)?.endpoints ?? []) expect(endpoint.reasoning).toBeNull();
    }
  });

  test('demo-voice speaks: speech output (not audio), a speech envelope, character pricing and voice cloning from wav or mp3', () => {
    const [voice] = catalogue.models.get('switchyard/demo-voice')?.endpoints ?? [];
    expect(voice?.outputModalities).toEqual(['speech']);
    expect(voice?.speechEnvelope?.voices).toEqual(['alloy', 'verse']);
    expect(voice?.speechEnvelope?.codecs).toContain('mp3');
    expect(voice?.pricing.prices.character?.text).toBe('0.000015');
    expect(voice?.supportsVoiceCloning).toBe(true);
    expect(voice?.referenceInputs?.audio?.formats).toEqual(['wav', 'mp3']);
  });

  test('demo-embed serves embeddings in three widths and demo-rerank serves rerank, both over the openai wire', () => {
    const [embed] = catalogue.models.get('switchyard/demo-embed')?.endpoints ?? [];
    expect(embed?.outputModalities).toEqual(['embeddings']);
    expect(embed?.supportedDimensions).toEqual([64, 128, 256]);
    const [rerank] = catalogue.models.get('switchyard/demo-rerank')?.endpoints ?? [];
    expect(rerank?.outputModalities).toEqual(['rerank']);
    expect(rerank?.provider.api).toBe('openai');
  });
});
