import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { KeyDirectory } from '../accounts/types.js';
import { createAccount } from '../accounts/accounts.js';
import type { Store } from '../store/store.js';

export const DEMO_CREDITS_USD = '10';

/**
 * The demo account's key: the one saved in `keyFile` while it still works, else a new account
 * funded with demo credits, whose key is written to `keyFile`. Returns the key and whether it is new.
 */
export async function ensureDemoKey(store: Store, keys: KeyDirectory, keyFile: string): Promise<{ key: string; created: boolean }> {
  const saved = await readFile(keyFile, 'utf8').then((text) => text.trim()).catch(() => '');
  if (saved && (await keys.authenticate(saved))) return { key: saved, created: false };
  const account = await createAccount(store, { name: 'Demo', creditsUsd: DEMO_CREDITS_USD });
  await mkdir(dirname(keyFile), { recursive: true });
  await writeFile(keyFile, `${account.key}\n`, { mode: 0o600 });
  return { key: account.key, created: true };
}
