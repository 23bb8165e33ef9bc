import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/accounts/accounts.js';
import { storableJsonText, storableParameters, storableRow, storableText } from '../../../src/store/storable-text.js';
import type { Store } from '../../../src/store/store.js';
import { STORE_ENGINES } from '../../support/store-engines.js';

describe('storable text', () => {
  it('U+0000 becomes U+FFFD, every occurrence; other text is returned as it is', () => {
    expect(storableText('a\u0000b\u0000')).toBe('a\uFFFDb\uFFFD');
    const clean = 'no nul here, only \\u0000 written out';
    expect(storableText(clean)).toBe(clean);
  });

  it('parameters: only strings change, and a list needing nothing is the same list', () => {
    const clean = ['a', 1, null, 2n];
    expect(storableParameters(clean)).toBe(clean);
    expect(storableParameters(['a\u0000', 1, null])).toEqual(['a\uFFFD', 1, null]);
  });

  it('JSON text: strings and object keys at any depth, never the written-out escape of a backslash', () => {
    const value = { 'k\u0000': ['v\u0000', { deep: 'x\u0000y' }], literal: 'a \\u0000 b', count: 3 };
    expect(JSON.parse(storableJsonText(value))).toEqual({ 'k\uFFFD': ['v\uFFFD', { deep: 'x\uFFFDy' }], literal: 'a \\u0000 b', count: 3 });
    expect(storableJsonText({ plain: 'text' })).toBe('{"plain":"text"}');
  });

  it('rows: text columns only, and the same row when nothing needed it', () => {
    const clean = { id: 'g1', tokens: 3, note: null };
    expect(storableRow(clean)).toBe(clean);
    expect(storableRow({ id: 'g1', note: 'a\u0000' })).toEqual({ id: 'g1', note: 'a\uFFFD' });
  });
});

const opened: Store[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

describe.each(STORE_ENGINES)('statements on $name', (engine) => {
  async function store(): Promise<Store> {
    const opening = await engine.open();
    opened.push(opening);
    return opening;
  }

  it('a NUL written through the query builder is stored as U+FFFD (an account name)', async () => {
    const db = await store();
    const account = await createAccount(db, { name: 'Ada\u0000Lovelace', creditsUsd: '1' });
    const row = await db.db.selectFrom('accounts').select('name').where('id', '=', account.accountId).executeTakeFirstOrThrow();
    expect(row.name).toBe('Ada\uFFFDLovelace');
  });

  it('a lookup by a text holding NUL finds the stored form instead of failing', async () => {
    const db = await store();
    const account = await createAccount(db, { name: 'Ada\u0000', creditsUsd: '1' });
    const found = await db.db.selectFrom('accounts').select('id').where('name', '=', 'Ada\u0000').execute();
    expect(found).toEqual([{ id: account.accountId }]);
    const raw = await sql<{ id: string }>`SELECT id FROM generations WHERE id = ${'gen-\u0000abc'}`.execute(db.db);
    expect(raw.rows).toEqual([]);
  });

  it('a NUL in a write transaction is stored as U+FFFD too', async () => {
    const db = await store();
    const account = await createAccount(db, { name: 'Ada', creditsUsd: '1' });
    await db.write((tx) => tx.updateTable('accounts').set({ name: 'Bob\u0000' }).where('id', '=', account.accountId).execute());
    const row = await db.db.selectFrom('accounts').select('name').where('id', '=', account.accountId).executeTakeFirstOrThrow();
    expect(row.name).toBe('Bob\uFFFD');
  });
});
