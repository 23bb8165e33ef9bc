import { describe, expect, it } from 'vitest';
import { newRecordId, newTimeOrderedRecordId } from '../../../src/accounts/record-id.js';

describe('record ids', () => {
  it('ids of the rows written on every request sort in the order they were minted', async () => {
    const minted: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      minted.push(newTimeOrderedRecordId('led'));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect([...minted].sort()).toEqual(minted);
    expect(new Set(minted).size).toBe(minted.length);
    for (const id of minted) expect(id).toMatch(/^led_[0-9a-z]{20,}$/);
  });

  it('ids minted in the same millisecond still differ, and sort in the order they were minted', () => {
    const ids = Array.from({ length: 1000 }, () => newTimeOrderedRecordId('hold'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('other record ids stay the prefix and 24 random hex', () => {
    expect(newRecordId('acct')).toMatch(/^acct_[0-9a-f]{24}$/);
  });
});
