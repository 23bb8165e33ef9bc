import { randomHex } from '../core/random-hex.js';

export type RecordPrefix = 'acct' | 'ws' | 'key' | 'hold' | 'led' | 'inst' | 'user' | 'aud';

/** A fresh id such as `acct_3f9c…`: the prefix names the record kind, 24 random hex follow. */
export function newRecordId(prefix: RecordPrefix): string {
  return `${prefix}_${randomHex(12)}`;
}

/**
 * A fresh id for the rows written on every request (holds, ledger entries), such as
 * `led_mhd2k4xa3f9c…`: the creation time (base 36), then 16 random hex. Ids minted later sort
 * later, so these rows land at the end of their primary-key index instead of on a random page of
 * it, and a commit rewrites one index page for all of them rather than one page each.
 */
export function newTimeOrderedRecordId(prefix: Extract<RecordPrefix, 'hold' | 'led' | 'aud'>): string {
  return `${prefix}_${Date.now().toString(36)}${randomHex(8)}`;
}
