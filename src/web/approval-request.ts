import { isS256Challenge } from '../accounts/auth-codes.js';
import { spendLimitProblem } from '../accounts/spend-limits.js';
import { formatUsd, parseUsd, type Units } from '../billing/money.js';
import { plainDecimal } from '../billing/usd-number.js';
import { readCallback, type Callback } from '../accounts/callback-url.js';
import { formField } from './form-fields.js';

/** An application's request for a key, as the approval page reads it from its query (or its form). */
export interface ApprovalRequest {
  callback: Callback;
  /** The callback exactly as asked, carried through the approval form. */
  callbackUrl: string;
  codeChallenge: string;
  /** The key's spend limit, or null for none. */
  limit: Units | null;
  /** `response_mode=manual`: the code is shown on the page, never sent to the callback. */
  manual: boolean;
}

/** What is wrong with a request, naming the parameter. */
export interface ApprovalProblem {
  field: string;
  problem: string;
}

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * Reads `callback_url`, `code_challenge`, `code_challenge_method` (S256, the only method),
 * optional `limit` (a plain non-negative decimal of USD) and optional `response_mode` (`manual`).
 * The first problem found is returned instead; no code is ever issued for such a request.
 */
export function readApprovalRequest(source: unknown): ApprovalRequest | ApprovalProblem {
  const callbackUrl = formField(source, 'callback_url');
  const callback = readCallback(callbackUrl);
  if ('problem' in callback) return { field: 'callback_url', problem: callback.problem };
  const method = formField(source, 'code_challenge_method');
  if (method !== 'S256') return { field: 'code_challenge_method', problem: 'must be S256, the only method this gateway accepts' };
  const codeChallenge = formField(source, 'code_challenge');
  if (!isS256Challenge(codeChallenge)) return { field: 'code_challenge', problem: 'must be the base64url SHA-256 of the code verifier (43 characters)' };
  const limit = readLimit(formField(source, 'limit'));
  if (limit !== null && typeof limit === 'object') return limit;
  const mode = formField(source, 'response_mode');
  if (mode !== '' && mode !== 'manual') return { field: 'response_mode', problem: 'must be manual when given' };
  return { callback, callbackUrl, codeChallenge, limit, manual: mode === 'manual' };
}

/**
 * The `limit` parameter: a decimal amount of USD, also in the exponent form a client's number
 * renders as (`1e-7`, as `@openrouter/sdk` sends `limit: 0.0000001`), read exactly; at most 24
 * decimal places and at most the largest spend limit.
 */
function readLimit(text: string): Units | null | ApprovalProblem {
  if (text === '') return null;
  const plain = plainDecimal(text);
  if (!DECIMAL.test(plain)) return { field: 'limit', problem: 'must be an amount of USD such as 5 or 2.50' };
  if ((plain.split('.')[1] ?? '').replace(/0+$/, '').length > 24) return { field: 'limit', problem: 'must have at most 24 decimal places' };
  const units = parseUsd(plain);
  const problem = spendLimitProblem(units);
  return problem ? { field: 'limit', problem } : units;
}

/** The hidden fields that carry a request through the approval form, as they were asked. */
export function approvalFields(request: ApprovalRequest): Record<string, string> {
  return {
    callback_url: request.callbackUrl,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    ...(request.limit !== null && { limit: formatUsd(request.limit) }),
    ...(request.manual && { response_mode: 'manual' }),
  };
}
