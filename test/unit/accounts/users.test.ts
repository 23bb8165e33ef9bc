import { describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/accounts/accounts.js';
import { CLI_CHANGE, readAudit } from '../../../src/accounts/audit.js';
import { changePassword, checkPassword, createUser, readUser } from '../../../src/accounts/users.js';
import type { Store } from '../../../src/store/store.js';
import { STORE_ENGINES, storeOpener } from '../../support/store-engines.js';

const PASSWORD = 'plum-orchard-1847';

describe.each(STORE_ENGINES)('users on $name', (engine) => {
  const open = storeOpener(engine);

  it('createUser stores an argon2id hash, never the password, under the lowercased email, audited as user.create with email and role only', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada' });
    const id = await createUser(store, { accountId, email: ' Ada@Example.COM ', password: PASSWORD, role: 'owner' }, CLI_CHANGE);
    const row = await store.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ account_id: accountId, email: 'ada@example.com', role: 'owner' });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(PASSWORD);
    expect(await readUser(store, id)).toMatchObject({ id, accountId, email: 'ada@example.com', role: 'owner' });
    const { events } = await readAudit(store.db, accountId, { limit: 1 });
    expect(events[0]).toMatchObject({ action: 'user.create', target: id, actor: { kind: 'cli' }, after: { email: 'ada@example.com', role: 'owner' } });
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
  });

  it('a short or overlong password, a bad email, a taken email (any case), a bad role or an unknown account is a RangeError naming the field', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada' });
    const other = await createAccount(store, { name: 'Bob' });
    await createUser(store, { accountId, email: 'ada@example.com', password: PASSWORD, role: 'owner' }, CLI_CHANGE);
    const attempts: [Parameters<typeof createUser>[1], RegExp][] = [
      [{ accountId, email: 'new@example.com', password: 'seven77', role: 'member' }, /^password: must be at least 8 characters$/],
      [{ accountId, email: 'new@example.com', password: 'x'.repeat(257), role: 'member' }, /^password: must be at most 256 characters$/],
      [{ accountId, email: 'new@example', password: PASSWORD, role: 'member' }, /^email: not an email address/],
      [{ accountId: other.accountId, email: 'ADA@example.com', password: PASSWORD, role: 'member' }, /^email: ada@example.com already has a user$/],
      [{ accountId, email: 'new@example.com', password: PASSWORD, role: 'admin' as 'member' }, /^role: must be owner or member/],
      [{ accountId: 'acct_nope', email: 'new@example.com', password: PASSWORD, role: 'member' }, /^account: no account acct_nope$/],
    ];
    for (const [input, message] of attempts) {
      const refused = createUser(store, input, CLI_CHANGE);
      await expect(refused, message.source).rejects.toThrow(RangeError);
      await expect(refused, message.source).rejects.toThrow(message);
    }
    expect(await store.db.selectFrom('users').select('email').execute()).toEqual([{ email: 'ada@example.com' }]);
  });

  it('checkPassword answers the person for the right password only; changePassword ends their sessions and the old password', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada' });
    const id = await createUser(store, { accountId, email: 'ada@example.com', password: PASSWORD, role: 'member' }, CLI_CHANGE);
    expect(await checkPassword(store, 'ADA@example.com', PASSWORD)).toMatchObject({ id, role: 'member' });
    expect(await checkPassword(store, 'ada@example.com', `${PASSWORD}!`)).toBeNull();
    expect(await checkPassword(store, 'nobody@example.com', PASSWORD)).toBeNull();
    await store.db.insertInto('sessions').values({ id: 's'.repeat(64), user_id: id, account_id: accountId, csrf_secret: 'c', created_at: Date.now(), expires_at: Date.now() + 60_000 }).execute();
    await changePassword(store, id, 'new-orchard-2024', CLI_CHANGE);
    expect(await store.db.selectFrom('sessions').select('id').where('user_id', '=', id).execute()).toEqual([]);
    expect(await checkPassword(store, 'ada@example.com', PASSWORD)).toBeNull();
    expect(await checkPassword(store, 'ada@example.com', 'new-orchard-2024')).toMatchObject({ id });
    await expect(changePassword(store, id, 'short', CLI_CHANGE)).rejects.toThrow(/^password: must be at least 8 characters$/);
  });
});
