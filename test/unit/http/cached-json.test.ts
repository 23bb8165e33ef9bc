import { describe, expect, test } from 'vitest';
import { acceptsGzip } from '../../../src/http/cached-json.js';

describe('accept-encoding', () => {
  test.each([
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['*', true],
    ['gzip;q=0', false],
    ['identity', false],
    ['deflate', false],
    [undefined, false],
  ])('%s takes gzip: %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
