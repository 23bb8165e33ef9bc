import { describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/accounts/accounts.js';
import { readAudit, type ChangeContext } from '../../../src/accounts/audit.js';
import { createWorkspace, WORKSPACE_NAME_MAX_LENGTH } from '../../../src/accounts/workspaces.js';
import type { Store } from '../../../src/store/store.js';
import { STORE_ENGINES, storeOpener } from '../../support/store-engines.js';

const person: ChangeContext = { actor: { kind: 'user', userId: 'user_1' }, via: 'dashboard', address: '192.0.2.7' };

describe.each(STORE_ENGINES)('workspaces on $name', (engine) => {
  const open = storeOpener(engine);

  it('createWorkspace adds a workspace to the account without limit or routing defaults, audited as workspace.create by whoever made it', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada' });
    const id = await createWorkspace(store, { accountId, name: '  Research ' }, person);
    expect(id).toMatch(/^ws_[0-9a-f]{24}$/);
    const row = await store.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
    expect(row).toMatchObject({ account_id: accountId, name: 'Research', limit_units: null, limit_reset: null, routing_defaults: null });
    const [event] = (await readAudit(store.db, accountId, { limit: 1 })).events;
    expect(event).toMatchObject({ action: 'workspace.create', target: id, actor: { kind: 'user', id: 'user_1' }, via: 'dashboard', address: '192.0.2.7', before: null, after: { name: 'Research' } });
  });

  it('an empty or overlong name, or an unknown account, is a RangeError naming the field and writes nothing', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada' });
    await expect(createWorkspace(store, { accountId, name: ' ' }, person)).rejects.toThrow(new RangeError('name: must not be empty'));
    await expect(createWorkspace(store, { accountId, name: 'x'.repeat(WORKSPACE_NAME_MAX_LENGTH + 1) }, person)).rejects.toThrow(/^name: must be at most/);
    await expect(createWorkspace(store, { accountId: 'acct_nope', name: 'Ops' }, person)).rejects.toThrow(new RangeError('account: no account acct_nope'));
    expect(await store.db.selectFrom('workspaces').select('name').execute()).toEqual([{ name: 'Default' }]);
    expect(await store.db.selectFrom('audit_events').select('action').where('action', '=', 'workspace.create').execute()).toEqual([]);
  });
});
