import { randomHex } from '../core/random-hex.js';

export type RecordPrefix = 'acct' | 'ws' | 'key' | 'hold' | 'led' | 'inst' | 'user' | 'aud';

/** A fresh id such as `acct_3f9c…`: the prefix names the record kind, 24 random hex follow. */
export function newRecordId(prefix: RecordPrefix): string {
  return `${prefix}_${randomHex(12)}`;
}

let lastStamp = 0;
let sequence = 0;

/**
 * A fresh id for the rows written on every request (holds), for ledger entries and for audit
 * events, such as `led_mhd2k4xa0003f9c…`: the creation time (base 36), a sequence within that millisecond
 * (4 base-36 digits), then 16 random hex. Ids minted later in this process sort later, even within
 * one millisecond (the audit trail is read newest first by id), so these rows land at the end of
 * their primary-key index instead of on a random page of it, and a commit rewrites one index page
 * for all of them rather than one page each.
 */
export function newTimeOrderedRecordId(prefix: Extract<RecordPrefix, 'hold' | 'led' | 'aud'>): string {
  const stamp = Date.now();
  sequence = stamp === lastStamp ? sequence + 1 : 0;
  lastStamp = stamp;
  return `${prefix}_${stamp.toString(36)}${sequence.toString(36).padStart(4, '0')}${randomHex(8)}`;
}
