import { describe, expect, it } from 'vitest';
import { callbackWith, readCallback, type Callback } from '../../../src/accounts/callback-url.js';

function accepted(value: string): Callback {
  const callback = readCallback(value);
  if ('problem' in callback) throw new Error(callback.problem);
  return callback;
}

describe('approval callbacks are https, or http on this machine only', () => {
  it.each([
    ['https anywhere', 'https://app.example/cb', 'https://app.example', false],
    ['http on localhost', 'http://localhost:3000/cb', 'http://localhost:3000', true],
    ['http on 127.0.0.1', 'http://127.0.0.1:8765/', 'http://127.0.0.1:8765', true],
    ['http on [::1]', 'http://[::1]:9000/cb', 'http://[::1]:9000', true],
  ])('%s is accepted', (_name, value, origin, loopback) => {
    expect(accepted(value)).toMatchObject({ origin, loopback });
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,hi'],
    ['plain http elsewhere', 'http://app.example/cb'],
    ['a relative path', '/cb'],
    ['a protocol-relative URL', '//app.example/cb'],
    ['credentials', 'https://user:pass@app.example/cb'],
    ['a fragment', 'https://app.example/cb#x'],
    ['an overlong URL', `https://app.example/${'a'.repeat(3000)}`],
    ['nothing', ''],
  ])('%s is refused with the reason', (_name, value) => {
    expect(readCallback(value)).toHaveProperty('problem');
  });

  it('the callback keeps its own query when the code is added', () => {
    expect(callbackWith(accepted('https://app.example/cb?state=1'), { code: 'abc' })).toBe('https://app.example/cb?state=1&code=abc');
  });
});
