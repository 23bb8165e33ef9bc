import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { KeyDirectory } from '../accounts/types.js';
import { createAccount } from '../accounts/accounts.js';
import { CLI_CHANGE } from '../accounts/audit.js';
import { checkPassword, createUser } from '../accounts/users.js';
import type { Store } from '../store/store.js';

export const DEMO_CREDITS_USD = '10';

/** The demo account's person, who signs in to the dashboard. */
export const DEMO_EMAIL = 'demo@switchyard.local';

export interface DemoAccess {
  key: string;
  /** Whether the key (and so the account) is new. */
  created: boolean;
  /** The demo person's sign-in, kept beside the key file. */
  login: { email: string; password: string; file: string };
}

/**
 * The demo account's key: the one saved in `keyFile` while it still works, else a new account
 * funded with demo credits, whose key is written to `keyFile`. Beside it, the sign-in of the
 * account's owner for the web pages (`demo-login.txt`: email, then password), made when missing.
 */
export async function ensureDemoAccess(store: Store, keys: KeyDirectory, keyFile: string): Promise<DemoAccess> {
  const saved = await readFile(keyFile, 'utf8').then((text) => text.trim()).catch(() => '');
  const existing = saved ? await keys.authenticate(saved) : null;
  const folder = dirname(keyFile);
  await mkdir(folder, { recursive: true });
  if (existing) return { key: saved, created: false, login: await ensureDemoLogin(store, existing.accountId, folder) };
  const account = await createAccount(store, { name: 'Demo', creditsUsd: DEMO_CREDITS_USD });
  await writeFile(keyFile, `${account.key}\n`, { mode: 0o600 });
  return { key: account.key, created: true, login: await ensureDemoLogin(store, account.accountId, folder) };
}

async function ensureDemoLogin(store: Store, accountId: string, folder: string): Promise<DemoAccess['login']> {
  const file = join(folder, 'demo-login.txt');
  const [email = '', password = ''] = await readFile(file, 'utf8').then((text) => text.split('\n')).catch(() => []);
  const user = email && password ? await checkPassword(store, email, password) : null;
  if (user && user.accountId === accountId) return { email, password, file };
  const taken = await store.db.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirst();
  const fresh = taken ? `demo-${randomBytes(3).toString('hex')}@switchyard.local` : DEMO_EMAIL;
  const secret = randomBytes(12).toString('base64url');
  await createUser(store, { accountId, email: fresh, password: secret, role: 'owner' }, CLI_CHANGE);
  await writeFile(file, `${fresh}\n${secret}\n`, { mode: 0o600 });
  return { email: fresh, password: secret, file };
}
