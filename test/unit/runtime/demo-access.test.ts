import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeyDirectory } from '../../../src/accounts/key-directory.js';
import { checkPassword } from '../../../src/accounts/users.js';
import { DEMO_EMAIL, ensureDemoAccess } from '../../../src/runtime/demo.js';
import { openStore, type Store } from '../../../src/store/store.js';

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

describe('the demo account', () => {
  it('gets a key and an owner who can sign in, both kept across restarts in files only the user reads', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'switchyard-demo-'));
    const store = await openStore(`sqlite:${join(folder, 'db.sqlite')}`);
    opened.push(store);
    const keyFile = join(folder, 'data', 'demo-key.txt');
    const first = await ensureDemoAccess(store, createKeyDirectory(store), keyFile);
    expect(first.created).toBe(true);
    expect(first.login.email).toBe(DEMO_EMAIL);
    const owner = await checkPassword(store, first.login.email, first.login.password);
    expect(owner?.role).toBe('owner');
    expect(owner?.accountId).toBe((await createKeyDirectory(store).authenticate(first.key))?.accountId);
    expect(await readFile(first.login.file, 'utf8')).toBe(`${first.login.email}\n${first.login.password}\n`);
    expect((await stat(first.login.file)).mode & 0o777).toBe(0o600);

    const again = await ensureDemoAccess(store, createKeyDirectory(store), keyFile);
    expect(again).toEqual({ ...first, created: false });
  });
});
