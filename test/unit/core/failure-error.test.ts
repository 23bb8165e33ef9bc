import { describe, expect, it } from 'vitest';
import { capUtf8, failureToError } from '../../../src/core/failure-error.js';

describe('provider error metadata', () => {
  it('caps raw at 4,096 UTF-8 bytes without splitting a character', () => {
    const text = 'a' + '€'.repeat(2000); // 1 + 6000 bytes
    const capped = capUtf8(text);
    expect(Buffer.byteLength(capped, 'utf8')).toBeLessThanOrEqual(4096);
    expect(capped.endsWith('€')).toBe(true);
    expect(Buffer.byteLength(capped, 'utf8')).toBe(1 + 3 * 1365);
  });

  it('keeps short raw text whole', () => {
    expect(capUtf8('{"error":1}')).toBe('{"error":1}');
  });

  it('names the provider, its status and message on a provider-caused error', () => {
    const error = failureToError({ kind: 'http', status: 503, retryable: true, providerMessage: 'down', raw: '{"x":1}' }, 'Sim Alpha');
    expect(error.status).toBe(502);
    expect(error.metadata).toMatchObject({ provider_status: 503, provider_message: 'down', provider_name: 'Sim Alpha', raw: '{"x":1}' });
  });

  it('invents no raw body for a disconnect or timeout', () => {
    const error = failureToError({ kind: 'timeout', retryable: true, providerMessage: 'slow' }, 'Sim');
    expect(error.status).toBe(504);
    expect(error.metadata.raw).toBeUndefined();
  });

  it('passes a provider Retry-After through on a provider 429', () => {
    const error = failureToError({ kind: 'http', status: 429, retryable: true, retryAfter: '7' }, 'Sim');
    expect(error.status).toBe(429);
    expect(error.errorType).toBe('provider_overloaded');
    expect(error.headers['retry-after']).toBe('7');
  });
});
