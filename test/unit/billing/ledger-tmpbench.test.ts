import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { it } from 'vitest';
import { createAccount } from '../../../src/accounts/accounts.js';
import { createLedger } from '../../../src/billing/ledger.js';
import { openStore } from '../../../src/store/store.js';

it('bench', async () => {
  for (const url of [`sqlite:${join(mkdtempSync(join(tmpdir(), 'b-')), 'db.sqlite')}`, 'sqlite::memory:']) {
    const store = await openStore(url);
    const c = await createAccount(store, { name: 'b', creditsUsd: '1000000' });
    const owner = { accountId: c.accountId, workspaceId: c.workspaceId, keyId: c.keyId };
    const ledger = createLedger(store);
    const n = 2000;
    let t = performance.now();
    for (let i = 0; i < n; i++) await store.db.selectFrom('accounts').selectAll().where('id', '=', c.accountId).execute();
    console.log(url.slice(0, 9), 'select/s', Math.round(n / ((performance.now() - t) / 1000)));
    t = performance.now();
    for (let i = 0; i < n; i++) await store.write(async (tx) => { await sql`select 1`.execute(tx); });
    console.log(url.slice(0, 9), 'empty tx/s', Math.round(n / ((performance.now() - t) / 1000)));
    t = performance.now();
    for (let i = 0; i < n; i++) await ledger.hold({ ...owner, generationId: `h${i}`, amount: 1n });
    console.log(url.slice(0, 9), 'hold/s', Math.round(n / ((performance.now() - t) / 1000)));
    await store.close();
  }
}, 120_000);
