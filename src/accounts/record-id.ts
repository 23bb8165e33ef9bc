import { randomHex } from '../core/random-hex.js';

export type RecordPrefix = 'acct' | 'ws' | 'key' | 'hold' | 'led' | 'inst';

/** A fresh id such as `acct_3f9c…`: the prefix names the record kind, 24 random hex follow. */
export function newRecordId(prefix: RecordPrefix): string {
  return `${prefix}_${randomHex(12)}`;
}
