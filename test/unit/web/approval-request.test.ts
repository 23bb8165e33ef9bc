import { describe, expect, it } from 'vitest';
import { s256Challenge } from '../../../src/accounts/auth-codes.js';
import { parseUsd } from '../../../src/billing/money.js';
import { readApprovalRequest } from '../../../src/web/approval-request.js';

const CHALLENGE = s256Challenge('v'.repeat(43));
const BASE = { callback_url: 'https://app.example/cb', code_challenge: CHALLENGE, code_challenge_method: 'S256' };

describe('the approval page reads the application\'s request', () => {
  it('reads an exact decimal limit and manual mode', () => {
    expect(readApprovalRequest({ ...BASE, limit: '5.125', response_mode: 'manual' })).toMatchObject({ limit: parseUsd('5.125'), manual: true, codeChallenge: CHALLENGE });
    expect(readApprovalRequest(BASE)).toMatchObject({ limit: null, manual: false });
  });

  it.each([
    ['code_challenge_method', { code_challenge_method: 'plain' }],
    ['code_challenge_method', { code_challenge_method: undefined }],
    ['code_challenge', { code_challenge: 'short' }],
    ['limit', { limit: '1e3' }],
    ['limit', { limit: '-1' }],
    ['limit', { limit: '5.' }],
    ['limit', { limit: `0.${'1'.repeat(25)}` }],
    ['response_mode', { response_mode: 'fragment' }],
    ['callback_url', { callback_url: 'javascript:alert(1)' }],
  ])('refuses a bad %s, naming it', (field, change) => {
    expect(readApprovalRequest({ ...BASE, ...change })).toMatchObject({ field });
  });
});
