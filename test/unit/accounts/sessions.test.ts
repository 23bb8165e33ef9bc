import { afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/accounts/accounts.js';
import { CLI_CHANGE } from '../../../src/accounts/audit.js';
import { endSession, readSession, SESSION_LIFETIME_MS, sessionIdOf, startSession } from '../../../src/accounts/sessions.js';
import { changePassword, createUser, readUser, type User } from '../../../src/accounts/users.js';
import type { Store } from '../../../src/store/store.js';
import { STORE_ENGINES } from '../../support/store-engines.js';

describe.each(STORE_ENGINES)('sessions on $name', (engine) => {
  const opened: Store[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  async function person(): Promise<{ store: Store; user: User }> {
    const store = await engine.open();
    opened.push(store);
    const { accountId } = await createAccount(store, { name: 'team' });
    const id = await createUser(store, { accountId, email: 'ada@example.com', password: 'a long passphrase', role: 'owner' }, CLI_CHANGE);
    const user = await readUser(store, id);
    if (!user) throw new Error('no user');
    return { store, user };
  }

  it('stores only the SHA-256 of the cookie token, and the token reads the session back', async () => {
    const { store, user } = await person();
    const { token, session } = await startSession(store, user, new Date(Date.now() + 1000));
    const rows = await store.db.selectFrom('sessions').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toBe(sessionIdOf(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    const read = await readSession(store, token, new Date(Date.now() + 2000));
    expect(read?.user.id).toBe(user.id);
    expect(read?.csrfSecret).toBe(session.csrfSecret);
  });

  it('a session is valid for seven days, then no longer', async () => {
    const { store, user } = await person();
    const start = new Date(Date.now() + 1000);
    const { token } = await startSession(store, user, start);
    expect(SESSION_LIFETIME_MS).toBe(7 * 24 * 3600 * 1000);
    expect(await readSession(store, token, new Date(start.getTime() + SESSION_LIFETIME_MS - 1))).not.toBeNull();
    expect(await readSession(store, token, new Date(start.getTime() + SESSION_LIFETIME_MS))).toBeNull();
  });

  it('signing out deletes the session row: its token signs nobody in again', async () => {
    const { store, user } = await person();
    const { token } = await startSession(store, user, new Date(Date.now() + 1000));
    await endSession(store, token);
    expect(await readSession(store, token, new Date(Date.now() + 2000))).toBeNull();
    expect(await store.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('a password change ends every session of the person', async () => {
    const { store, user } = await person();
    const first = await startSession(store, user, new Date(Date.now() + 1000));
    const second = await startSession(store, user, new Date(Date.now() + 1000));
    await changePassword(store, user.id, 'another passphrase', CLI_CHANGE);
    expect(await readSession(store, first.token, new Date(Date.now() + 2000))).toBeNull();
    expect(await readSession(store, second.token, new Date(Date.now() + 2000))).toBeNull();
  });

  it('a session started before the last password change is invalid even if its row remains', async () => {
    const { store, user } = await person();
    const { token } = await startSession(store, user, new Date(user.passwordChangedAt.getTime() - 60_000));
    expect(await readSession(store, token, new Date(Date.now() + 1000))).toBeNull();
  });

  it('an unknown, empty or overlong token is no session', async () => {
    const { store } = await person();
    expect(await readSession(store, 'nope')).toBeNull();
    expect(await readSession(store, '')).toBeNull();
    expect(await readSession(store, 'x'.repeat(5000))).toBeNull();
  });
});
