import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { readSubmission } from '../../../src/batches/submission.js';

const chat = (customId: string, extra: Record<string, unknown> = {}) => ({ custom_id: customId, body: { messages: [{ role: 'user', content: 'Hi' }], ...extra } });

function refusal(body: unknown): string {
  try {
    readSubmission(body);
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'invalid_request') return error.message;
    throw error;
  }
  throw new Error('the submission was accepted');
}

describe('a batch submission\'s envelope', () => {
  it('accepts requests for one of the three routes, with the batch\'s model and provider as defaults', () => {
    const submission = readSubmission({ endpoint: '/v1/chat/completions', model: 'acme/chat', provider: { only: ['alpha'] }, requests: [chat('a'), chat('b')] });
    expect(submission.endpoint).toBe('/v1/chat/completions');
    expect(submission.model).toBe('acme/chat');
    expect(submission.provider).toEqual({ only: ['alpha'] });
    expect('requests' in submission.source && submission.source.requests.map((request) => request.customId)).toEqual(['a', 'b']);
  });

  it('refuses it as a whole, naming the field', () => {
    expect(refusal({ requests: [chat('a')] })).toBe('endpoint: is required');
    expect(refusal({ endpoint: '/v1/embeddings', requests: [chat('a')] })).toMatch(/^endpoint: must be one of "\/v1\/chat\/completions", "\/v1\/responses", "\/v1\/messages"$/);
    expect(refusal({ endpoint: '/v1/messages' })).toBe('requests: is required');
    expect(refusal({ endpoint: '/v1/messages', requests: [] })).toBe('requests: must hold at least one request');
    expect(refusal({ endpoint: '/v1/messages', requests: Array.from({ length: 1001 }, (_, index) => chat(`r${index}`)) })).toBe('requests: at most 1000 requests per batch');
    expect(refusal({ endpoint: '/v1/messages', requests: [chat('a'), chat('b'), chat('a')] })).toBe('requests[2].custom_id: repeated');
    expect(refusal({ endpoint: '/v1/messages', requests: [chat('x'.repeat(129))] })).toBe('requests[0].custom_id: at most 128 characters');
    expect(refusal({ endpoint: '/v1/messages', requests: [chat('line\nbreak')] })).toBe('requests[0].custom_id: printable characters only');
    expect(refusal({ endpoint: '/v1/messages', requests: [chat('a', { stream: true })] })).toMatch(/^requests\[0\]\.body\.stream: not accepted in a batch/);
    expect(refusal({ endpoint: '/v1/chat/completions', requests: [chat('a', { store: true })] })).toBe('requests[0].body.store: a batched chat request cannot be stored');
    expect(refusal({ endpoint: '/v1/chat/completions', requests: [chat('a')], completion_window: '1h' })).toBe('completion_window: must be "24h"');
    expect(refusal({ endpoint: '/v1/chat/completions', requests: [chat('a')], priority: 'high' })).toBe('priority: unknown member');
    expect(refusal({ endpoint: '/v1/chat/completions', requests: [chat('a')], input_file_id: 'file-1' })).toBe('input_file_id: give either requests or input_file_id, not both');
  });

  it('counts a custom_id\'s length in characters, not bytes', () => {
    expect(() => readSubmission({ endpoint: '/v1/messages', requests: [chat('é'.repeat(128))] })).not.toThrow();
  });
});
