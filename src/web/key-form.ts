import { spendLimitProblem } from '../accounts/spend-limits.js';
import { parseUsd, type Units } from '../billing/money.js';
import { KEY_NAME_MAX_LENGTH } from '../accounts/key-management.js';
import type { LimitReset, SpendLimit } from '../accounts/types.js';
import { formField } from './form-fields.js';
import { fieldRefusal } from './page-refusal.js';

const PLAIN_DECIMAL = /^\d{1,15}(\.\d{1,24})?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** The create-key form: Name, Limit (USD), Limit reset, Expires. */
export interface KeyForm {
  name: string;
  limit: SpendLimit | null;
  expiresAt: Date | null;
}

/** Reads and checks the create-key form; a problem is a 400 naming the field by its label. */
export function readCreateKeyForm(body: unknown, at: Date = new Date()): KeyForm {
  return { name: readName(body), limit: readLimit(body), expiresAt: readExpiry(body, at) };
}

/** The edit form of one key: Name, Limit (USD), Limit reset. */
export function readEditKeyForm(body: unknown): { name: string; limit: SpendLimit | null } {
  return { name: readName(body), limit: readLimit(body) };
}

function readName(body: unknown): string {
  const name = formField(body, 'name').trim();
  if (name === '') throw fieldRefusal('Name', 'give the key a name.');
  if (name.length > KEY_NAME_MAX_LENGTH) throw fieldRefusal('Name', `must be at most ${KEY_NAME_MAX_LENGTH} characters.`);
  return name;
}

/** Limit (USD) and Limit reset together: a window needs an amount. */
function readLimit(body: unknown): SpendLimit | null {
  const text = formField(body, 'limit').trim().replace(/^\$/, '');
  const reset = readReset(formField(body, 'limit_reset'));
  if (text === '') {
    if (reset !== null) throw fieldRefusal('Limit reset', 'a window needs a limit: fill in Limit (USD) too.');
    return null;
  }
  if (!PLAIN_DECIMAL.test(text)) throw fieldRefusal('Limit (USD)', 'must be an amount of dollars such as 20 or 2.50 (zero or more).');
  const limit: Units = parseUsd(text);
  const problem = spendLimitProblem(limit);
  if (problem) throw fieldRefusal('Limit (USD)', `${problem}.`);
  return { limit, reset };
}

function readReset(value: string): LimitReset | null {
  if (value === '' || value === 'none') return null;
  if (value === 'daily' || value === 'weekly' || value === 'monthly') return value;
  throw fieldRefusal('Limit reset', 'must be none, daily, weekly or monthly.');
}

/** `YYYY-MM-DD` (the start of that UTC day), `YYYY-MM-DDTHH:MM` (UTC) or an ISO 8601 instant; in the future. */
function readExpiry(body: unknown, at: Date): Date | null {
  const text = formField(body, 'expires').trim();
  if (text === '') return null;
  const iso = DATE_ONLY.test(text) ? `${text}T00:00:00Z` : LOCAL_TIME.test(text) ? `${text}Z` : text;
  const expiresAt = new Date(iso);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(expiresAt.getTime())) {
    throw fieldRefusal('Expires', 'must be a date such as 2030-01-31 (UTC) or an ISO 8601 time.');
  }
  if (expiresAt.getTime() <= at.getTime()) throw fieldRefusal('Expires', 'must be in the future.');
  return expiresAt;
}
