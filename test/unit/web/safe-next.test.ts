import { describe, expect, it } from 'vitest';
import { DEFAULT_NEXT, safeNextPath } from '../../../src/web/safe-next.js';

describe('after signing in, only a path on this site is followed', () => {
  it.each([
    ['/dashboard', '/dashboard'],
    ['/auth?callback_url=https%3A%2F%2Fapp.example&code_challenge=x', '/auth?callback_url=https%3A%2F%2Fapp.example&code_challenge=x'],
    ['/dashboard/keys/abc', '/dashboard/keys/abc'],
  ])('%s is kept', (next, kept) => {
    expect(safeNextPath(next)).toBe(kept);
  });

  it.each([
    ['an absolute URL', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example/x'],
    ['a backslash host', '/\\evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'dashboard'],
    ['a tab inside', '/\t/evil.example'],
    ['nothing', ''],
    ['not text', ['/a', '/b']],
  ])('%s gives the dashboard', (_name, next) => {
    expect(safeNextPath(next)).toBe(DEFAULT_NEXT);
  });
});
