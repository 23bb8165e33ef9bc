import { describe, expect, it } from 'vitest';
import { parseUsd } from '../../../src/billing/money.js';
import { readCreateKeyForm } from '../../../src/web/key-form.js';

const NOW = new Date('2025-07-01T12:00:00Z');

describe('the create-key form', () => {
  it('reads a name, an exact limit with its window, and an expiry date as the start of that UTC day', () => {
    expect(readCreateKeyForm({ name: ' teammate ', limit: '20.50', limit_reset: 'weekly', expires: '2025-08-01' }, NOW)).toEqual({
      name: 'teammate', limit: { limit: parseUsd('20.50'), reset: 'weekly' }, expiresAt: new Date('2025-08-01T00:00:00Z'),
    });
    expect(readCreateKeyForm({ name: 'n', limit: '', limit_reset: '', expires: '' }, NOW)).toEqual({ name: 'n', limit: null, expiresAt: null });
  });

  it.each([
    ['Name', { name: '' }],
    ['Name', { name: 'x'.repeat(201) }],
    ['Limit (USD)', { limit: 'ten' }],
    ['Limit (USD)', { limit: '-3' }],
    ['Limit reset', { limit_reset: 'weekly' }],
    ['Limit reset', { limit: '3', limit_reset: 'yearly' }],
    ['Expires', { expires: 'tomorrow' }],
    ['Expires', { expires: '2025-06-30' }],
    ['Expires', { expires: '2025-13-45' }],
  ])('refuses a bad %s with a message naming it', (field, change) => {
    expect(() => readCreateKeyForm({ name: 'n', ...change }, NOW)).toThrow(new RegExp(`^${field.replace(/[()]/g, '\\$&')}:`));
  });
});
