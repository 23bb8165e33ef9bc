import { describe, expect, test } from 'vitest';
import { requestTimeoutOptions } from '../../../src/http/request-timeouts.js';
import { DEFAULT_HTTP_SETTINGS } from '../../../src/http/services.js';

describe('the server options bounding how requests are received', () => {
  test('the settings become the server timeouts; no socket inactivity timeout cuts a quiet answer', () => {
    const options = requestTimeoutOptions({ ...DEFAULT_HTTP_SETTINGS, headersTimeoutMs: 5_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 8_000 });
    expect(options).toMatchObject({ requestTimeout: 30_000, keepAliveTimeout: 8_000, connectionTimeout: 0 });
    expect(options.http).toMatchObject({ headersTimeout: 5_000, requestTimeout: 30_000, keepAliveTimeout: 8_000 });
  });

  test('deadlines are checked at least once a second, and at least once per head deadline', () => {
    expect(requestTimeoutOptions(DEFAULT_HTTP_SETTINGS).http.connectionsCheckingInterval).toBe(1_000);
    expect(requestTimeoutOptions({ ...DEFAULT_HTTP_SETTINGS, headersTimeoutMs: 300 }).http.connectionsCheckingInterval).toBe(300);
  });

  test.each([
    ['a head deadline past the whole-request one', { headersTimeoutMs: 20_000, requestTimeoutMs: 10_000 }, /headersTimeoutMs must not exceed requestTimeoutMs/],
    ['a zero deadline', { requestTimeoutMs: 0 }, /requestTimeoutMs must be a positive number/],
    ['a negative keep-alive', { keepAliveTimeoutMs: -1 }, /keepAliveTimeoutMs must be a positive number/],
    ['a fractional head deadline', { headersTimeoutMs: 1.5 }, /headersTimeoutMs must be a positive number/],
  ])('%s is refused at start-up', (_name, settings, message) => {
    expect(() => requestTimeoutOptions({ ...DEFAULT_HTTP_SETTINGS, ...settings })).toThrow(message);
  });
});
