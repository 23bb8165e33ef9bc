import { describe, expect, it } from 'vitest';
import { GatewayError, type ErrorCode } from '../../../../src/core/errors.js';
import { messagesErrorBody, messagesErrorType } from '../../../../src/dialects/messages/error-body.js';

describe('messages dialect error types', () => {
  it.each<[ErrorCode, string]>([
    ['invalid_request', 'invalid_request_error'],
    ['context_length_exceeded', 'invalid_request_error'],
    ['provider_rejected', 'invalid_request_error'],
    ['unsupported_output', 'invalid_request_error'],
    ['authentication', 'authentication_error'],
    ['payment_required', 'billing_error'],
    ['not_found', 'not_found_error'],
    ['payload_too_large', 'request_too_large'],
    ['rate_limit_exceeded', 'rate_limit_error'],
    ['provider_rate_limited', 'overloaded_error'],
    ['restarting', 'overloaded_error'],
    ['server_unavailable', 'overloaded_error'],
    ['client_timeout', 'timeout_error'],
    ['upstream_timeout', 'timeout_error'],
    ['server', 'api_error'],
    ['provider_failed', 'api_error'],
    ['provider_unavailable', 'api_error'],
    ['no_route', 'api_error'],
  ])('%s is %s', (code, type) => {
    expect(messagesErrorType(new GatewayError(code, 'x'))).toBe(type);
  });

  it('a provider answering 529 (overloaded) is overloaded_error whatever the shared class', () => {
    expect(messagesErrorType(new GatewayError('provider_failed', 'x', { metadata: { provider_status: 529 } }))).toBe('overloaded_error');
  });

  it('the envelope carries the shared code and metadata inside error', () => {
    const error = new GatewayError('invalid_request', 'top_k: must be >= 0', { metadata: { field: 'top_k' } });
    expect(messagesErrorBody(error)).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'top_k: must be >= 0', code: 400, metadata: { error_type: 'invalid_request', field: 'top_k' } },
    });
  });

  it('a prompt a provider refused as too long is worded as the Anthropic API words it', () => {
    const error = new GatewayError('context_length_exceeded', 'Sim A rejected the request: maximum context length is 8192 tokens', {
      metadata: { provider_name: 'Sim A', provider_status: 400 },
    });
    expect(messagesErrorBody(error).error).toMatchObject({
      type: 'invalid_request_error',
      message: 'prompt is too long: Sim A rejected the request: maximum context length is 8192 tokens',
      code: 400,
    });
  });

  it('no route because no endpoint window holds the prompt is worded as a prompt too long; other no-route reasons are not', () => {
    const rejection = (reason: string) => ({ endpoint: 'sim-a/acme/chat', provider: 'sim-a', model: 'acme/chat', reason });
    const tooLong = new GatewayError('no_route', 'No live endpoint can serve this request', {
      metadata: { rejections: [rejection('prompt of about 9000 tokens does not fit the context window of 8192'), rejection('context window of 4096 cannot hold the kept conversation (about 5000 tokens) beside the ceiling')] },
    });
    expect(messagesErrorBody(tooLong).error.message).toBe('prompt is too long: No live endpoint can serve this request');
    const mixed = new GatewayError('no_route', 'No live endpoint can serve this request', {
      metadata: { rejections: [rejection('prompt of about 9000 tokens does not fit the context window of 8192'), rejection('does not declare tools')] },
    });
    expect(messagesErrorBody(mixed).error.message).toBe('No live endpoint can serve this request');
  });
});
