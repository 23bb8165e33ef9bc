import { describe, expect, test } from 'vitest';
import { decodeChatRequest } from '../../../../src/dialects/chat/decode.js';
import type { ChatRequestBody } from '../../../../src/dialects/chat/schema.js';
import type { GatewayError } from '../../../../src/core/errors.js';
import type { HeaderBag } from '../../../../src/dialects/shared/request-headers.js';

const TOOL = { type: 'function' as const, function: { name: 'lookup' } };

function decode(extra: Partial<ChatRequestBody> = {}, headers: HeaderBag = {}) {
  return decodeChatRequest({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }], ...extra } as ChatRequestBody, headers);
}

function refusal(extra: Partial<ChatRequestBody>, headers: HeaderBag = {}): GatewayError {
  try {
    decode(extra, headers);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected a refusal');
}

describe('the request members as the core reads them', () => {
  test('max_tokens and max_completion_tokens are one ceiling: the smaller wins when both are sent', () => {
    expect(decode({ max_tokens: 300 }).maxTokens).toBe(300);
    expect(decode({ max_completion_tokens: 200 }).maxTokens).toBe(200);
    expect(decode({ max_tokens: 300, max_completion_tokens: 200 }).maxTokens).toBe(200);
    expect(decode().maxTokens).toBeUndefined();
  });

  test('reasoning_effort is shorthand for reasoning.effort and wins when both are sent', () => {
    expect(decode({ reasoning: { effort: 'low', max_tokens: 512 }, reasoning_effort: 'high' }).reasoning).toEqual({ effort: 'high', maxTokens: 512 });
    expect(decode({ reasoning_effort: 'none' }).reasoning).toEqual({ effort: 'none' });
  });

  test('sampling settings need a declaration; top_k, min_p and repetition_penalty are sent only where declared', () => {
    const request = decode({ temperature: 0.2, stop: ['END'], seed: 4, top_k: 40, min_p: 0.1, repetition_penalty: 1.1 });
    expect(request.parameters).toEqual({ temperature: 0.2, stop: ['END'], seed: 4 });
    expect(request.softParameters).toEqual({ top_k: 40, min_p: 0.1, repetition_penalty: 1.1 });
  });

  test('structured_outputs and a json_schema response format are a routing marker, never a parameter', () => {
    expect(decode({ structured_outputs: true }).structuredOutputs).toBe(true);
    expect(decode({ structured_outputs: true }).parameters).not.toHaveProperty('structured_outputs');
    expect(decode({ response_format: { type: 'json_schema', json_schema: { name: 'x' } } }).structuredOutputs).toBe(true);
    expect(decode({ response_format: { type: 'json_object' } }).structuredOutputs).toBeUndefined();
  });

  test('top_a and verbosity are accepted and reported as not honoured', () => {
    expect(decode({ top_a: 0.5, verbosity: 'low' }).ignored).toEqual(['top_a', 'verbosity']);
  });

  test('modalities beyond text are an output promise', () => {
    expect(decode({ modalities: ['text', 'image'] }).outputModalities).toEqual(['image']);
    expect(decode({ modalities: ['text'] }).outputModalities).toBeUndefined();
  });

  test('audio output needs the audio member: voice and format have no defaults', () => {
    const error = refusal({ modalities: ['text', 'audio'] });
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^audio:/);
    expect(decode({ modalities: ['audio'], audio: { voice: 'alloy', format: 'wav' } }).outputModalities).toEqual(['audio']);
  });

  test('call-ready dispatch is asked only with stream, tools and include_tool_dispatch', () => {
    const options = { include_tool_dispatch: true };
    expect(decode({ stream: true, tools: [TOOL], stream_options: options }).toolDispatch).toBe(true);
    expect(decode({ stream: false, tools: [TOOL], stream_options: options }).toolDispatch).toBeUndefined();
    expect(decode({ stream: true, stream_options: options }).toolDispatch).toBeUndefined();
    expect(decode({ stream: true, tools: [TOOL] }).toolDispatch).toBeUndefined();
  });

  test('transforms [middle-out] and the context-compression plugin ask for compression; an empty list declines', () => {
    expect(decode({ transforms: ['middle-out'] }).middleOut).toBe(true);
    expect(decode({ plugins: [{ id: 'context-compression' }] }).middleOut).toBe(true);
    expect(decode({ transforms: [] }).middleOut).toBeUndefined();
    expect(refusal({ plugins: [{ id: 'context-compression' }, { id: 'web' }] }).message).toMatch(/^plugins\[1\]\.id: .*"web"/);
  });

  test('store true is refused naming store; false is an accepted opt-out', () => {
    expect(refusal({ store: true }).message).toMatch(/^store:/);
    expect(decode({ store: false }).parameters).not.toHaveProperty('store');
  });
});

describe('session id and attribution', () => {
  test('body session_id wins over prompt_cache_key, which wins over X-Session-Id', () => {
    const header = { 'x-session-id': 'from-header' };
    expect(decode({ session_id: 'from-body', prompt_cache_key: 'from-cache-key' }, header).sessionId).toBe('from-body');
    expect(decode({ prompt_cache_key: 'from-cache-key' }, header).sessionId).toBe('from-cache-key');
    expect(decode({}, header).sessionId).toBe('from-header');
    expect(decode().sessionId).toBeUndefined();
  });

  test('an X-Session-Id over 256 characters is refused naming it', () => {
    expect(refusal({}, { 'x-session-id': 's'.repeat(257) }).message).toMatch(/^X-Session-Id:/);
    expect(decode({}, { 'x-session-id': 's'.repeat(256) }).sessionId).toHaveLength(256);
  });

  test('a non-empty X-Partner-Title wins over X-Title; an empty one falls back to X-Title', () => {
    const referer = { 'http-referer': 'https://app.example' };
    expect(decode({}, { 'x-partner-title': 'Partner', 'x-title': 'Title', ...referer }).attribution).toEqual({ title: 'Partner', referer: 'https://app.example' });
    expect(decode({}, { 'x-partner-title': '', 'x-title': 'Title' }).attribution).toEqual({ title: 'Title' });
  });
});

describe('provider preferences and the route alias', () => {
  test('wire names become the core preferences', () => {
    const provider = decode({
      provider: { only: ['a'], ignore: ['b'], order: ['c'], allow_fallbacks: false, require_parameters: true, data_collection: 'deny', zdr: true, quantizations: ['fp8'] },
    }).provider;
    expect(provider).toEqual({
      only: ['a'], ignore: ['b'], order: ['c'], allowFallbacks: false, requireParameters: true, dataCollection: 'deny', zdr: true, quantizations: ['fp8'],
    });
  });

  test('sort is a name or {by, partition}', () => {
    expect(decode({ provider: { sort: 'latency' } }).provider).toEqual({ sort: 'latency' });
    expect(decode({ provider: { sort: { by: 'price', partition: 'none' } } }).provider).toEqual({ sort: 'price', partition: 'none' });
  });

  test('route is the alias of sort.partition: fallback = model, sort = none; an explicit partition wins', () => {
    expect(decode({ route: 'fallback' }).provider).toEqual({ partition: 'model' });
    expect(decode({ route: 'sort' }).provider).toEqual({ partition: 'none' });
    expect(decode({ route: 'sort', provider: { sort: { by: 'price', partition: 'model' } } }).provider?.partition).toBe('model');
  });

  test('max_price numbers are read as exact decimals', () => {
    expect(decode({ provider: { max_price: { prompt: 0.5, completion: 1e-7, request: '0.01' } } }).provider?.maxPrice).toEqual({
      prompt: '0.5', completion: '0.0000001', request: '0.01',
    });
  });
});

describe('logit_bias', () => {
  test('token ids written as decimal integers are taken and sent where declared', () => {
    expect(decode({ logit_bias: { 50256: -100, '42': 3.5 } }).parameters.logit_bias).toEqual({ 50256: -100, 42: 3.5 });
  });

  test('a key that is not a token id is refused with 400 naming logit_bias and the key', () => {
    for (const key of ['x', '-1', '1.5', '', ' 42']) {
      const error = refusal({ logit_bias: { [key]: 1 } });
      expect(error.status).toBe(400);
      expect(error.metadata.field).toBe('logit_bias');
      expect(error.message).toContain(`key ${JSON.stringify(key)} is not a token id`);
    }
  });
});
