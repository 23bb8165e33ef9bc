import { describe, expect, it } from 'vitest';
import { createAccount, createKey, revokeKey } from '../../../src/accounts/accounts.js';
import { readAudit, type ChangeContext } from '../../../src/accounts/audit.js';
import { createKeyDirectory } from '../../../src/accounts/key-directory.js';
import { findKey, listKeys, updateKey } from '../../../src/accounts/key-management.js';
import { LIFETIME_DAY } from '../../../src/accounts/scope-usage.js';
import { dayStart } from '../../../src/accounts/usage-window.js';
import { parseUsd } from '../../../src/billing/money.js';
import type { Store } from '../../../src/store/store.js';
import { STORE_ENGINES, storeOpener } from '../../support/store-engines.js';

/** Keys created in one millisecond have no order between them; the ordering tests space them out. */
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 2));

const context: ChangeContext = { actor: { kind: 'management_key', keyHash: 'f'.repeat(64) }, via: 'api', address: '127.0.0.1' };

describe.each(STORE_ENGINES)('key management on $name', (engine) => {
  const open = storeOpener(engine);

  it('listKeys answers inference keys newest first; management, disabled and revoked keys only when asked', async () => {
    const store = await open();
    const { accountId, keyId: firstId } = await createAccount(store, { name: 'Ada' });
    await nextMillisecond();
    const management = await createKey(store, { accountId, management: true, name: 'admin' });
    await nextMillisecond();
    const second = await createKey(store, { accountId, name: 'second' });
    await nextMillisecond();
    const revoked = await createKey(store, { accountId, name: 'gone' });
    await revokeKey(store, { id: revoked.id });
    await nextMillisecond();
    const third = await createKey(store, { accountId, name: 'third' });
    await updateKey(store, accountId, third.hash, { disabled: true }, context);

    const ids = (keys: { id: string }[]) => keys.map((key) => key.id);
    expect(ids(await listKeys(store, accountId))).toEqual([second.id, firstId]);
    expect(ids(await listKeys(store, accountId, { includeDisabled: true }))).toEqual([third.id, second.id, firstId]);
    expect(ids(await listKeys(store, accountId, { includeManagement: true }))).toEqual([second.id, management.id, firstId]);
    expect(ids(await listKeys(store, accountId, { includeRevoked: true, includeDisabled: true }))).toEqual([third.id, revoked.id, second.id, firstId]);
    expect(ids(await listKeys(store, accountId, { offset: 1, limit: 1 }))).toEqual([firstId]);
  });

  it('listKeys keeps to one account and, when named, one workspace', async () => {
    const store = await open();
    const ada = await createAccount(store, { name: 'Ada' });
    await createAccount(store, { name: 'Bob' });
    expect((await listKeys(store, ada.accountId)).map((key) => key.id)).toEqual([ada.keyId]);
    expect(await listKeys(store, ada.accountId, { workspaceId: 'ws_other' })).toEqual([]);
    expect((await listKeys(store, ada.accountId, { workspaceId: ada.workspaceId })).map((key) => key.id)).toEqual([ada.keyId]);
  });

  it('usage and limit_remaining come from the key\'s spend windows, never below zero', async () => {
    const store = await open();
    const at = new Date('2025-03-12T10:00:00Z');
    const { accountId } = await createAccount(store, { name: 'Ada' });
    const daily = await createKey(store, { accountId, name: 'daily', limitUsd: '1', limitReset: 'daily' });
    const spent = await createKey(store, { accountId, name: 'spent', limitUsd: '0.5' });
    const [dailyId, spentId] = [daily.id, spent.id];
    await store.db.insertInto('spend_usage').values([
      { scope: 'key', scope_id: dailyId, day_start: LIFETIME_DAY, amount_units: parseUsd('3').toString() },
      { scope: 'key', scope_id: dailyId, day_start: dayStart(at), amount_units: parseUsd('0.25').toString() },
      { scope: 'key', scope_id: dailyId, day_start: dayStart(at) - 86_400_000, amount_units: parseUsd('2.75').toString() },
      { scope: 'key', scope_id: spentId, day_start: LIFETIME_DAY, amount_units: parseUsd('0.75').toString() },
    ]).execute();

    const keys = await listKeys(store, accountId, {}, at);
    const byName = new Map(keys.map((key) => [key.name, key]));
    expect(byName.get('daily')).toMatchObject({
      usage: { total: parseUsd('3'), daily: parseUsd('0.25'), weekly: parseUsd('3'), monthly: parseUsd('3') },
      limit: { limit: parseUsd('1'), reset: 'daily' },
      limitRemaining: parseUsd('0.75'),
    });
    expect(byName.get('spent')).toMatchObject({ limitRemaining: 0n, limit: { limit: parseUsd('0.5'), reset: null } });
    expect(byName.get('Default')).toMatchObject({ limit: null, limitRemaining: null, usage: { total: 0n } });
    expect((await findKey(store, accountId, daily.hash, at))?.usage).toEqual(byName.get('daily')?.usage);
  });

  it('findKey answers a live key of this account only', async () => {
    const store = await open();
    const ada = await createAccount(store, { name: 'Ada' });
    const bob = await createAccount(store, { name: 'Bob' });
    const adaKey = await createKey(store, { accountId: ada.accountId, name: 'mine' });
    expect(await findKey(store, ada.accountId, adaKey.hash)).toMatchObject({ id: adaKey.id, hash: adaKey.hash, name: 'mine', revoked: false });
    expect(await findKey(store, bob.accountId, adaKey.hash)).toBeNull();
    expect(await findKey(store, ada.accountId, 'not-a-hash')).toBeNull();
    await revokeKey(store, { accountId: ada.accountId, hash: adaKey.hash });
    expect(await findKey(store, ada.accountId, adaKey.hash)).toBeNull();
  });

  it('updateKey changes name, disabled and limit, sets updated_at and audits key.update without secrets', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada' });
    const created = await createKey(store, { accountId, name: 'old' });
    const updated = await updateKey(store, accountId, created.hash, { name: ' new ', disabled: true, limit: { limit: parseUsd('2.5'), reset: 'weekly' } }, context);
    expect(updated).toMatchObject({ name: 'new', disabled: true, limit: { limit: parseUsd('2.5'), reset: 'weekly' }, limitRemaining: parseUsd('2.5') });
    expect(updated?.updatedAt).toBeInstanceOf(Date);

    const removed = await updateKey(store, accountId, created.hash, { limit: null }, context);
    expect(removed).toMatchObject({ name: 'new', disabled: true, limit: null, limitRemaining: null });

    const { events } = await readAudit(store.db, accountId, { limit: 10 });
    const updates = events.filter((event) => event.action === 'key.update');
    expect(updates).toHaveLength(2);
    expect(updates[1]).toMatchObject({
      target: created.hash,
      actor: { kind: 'management_key', id: context.actor.kind === 'management_key' ? context.actor.keyHash : '' },
      via: 'api',
      address: '127.0.0.1',
      before: { name: 'old', disabled: false, limit_usd: null, limit_reset: null },
      after: { name: 'new', disabled: true, limit_usd: '2.5', limit_reset: 'weekly' },
    });
    const text = JSON.stringify(updates);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain('sk-svc-v1-');
  });

  it('a disabled key stops authenticating at once and authenticates again when enabled', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada' });
    const created = await createKey(store, { accountId });
    const directory = createKeyDirectory(store);
    expect(await directory.authenticate(created.key)).not.toBeNull();
    await updateKey(store, accountId, created.hash, { disabled: true }, context);
    expect(await directory.authenticate(created.key)).toBeNull();
    await updateKey(store, accountId, created.hash, { disabled: false }, context);
    expect((await directory.authenticate(created.key))?.hash).toBe(created.hash);
  });

  it('a new limit reaches a cached key at once', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada' });
    const created = await createKey(store, { accountId });
    const directory = createKeyDirectory(store);
    expect((await directory.authenticate(created.key))?.scopeLimits.key).toBeUndefined();
    await updateKey(store, accountId, created.hash, { limit: { limit: parseUsd('1'), reset: null } }, context);
    expect((await directory.authenticate(created.key))?.scopeLimits.key).toEqual({ limit: parseUsd('1'), reset: null });
  });

  it('updateKey refuses an empty name and a negative limit, and answers null for a key it cannot see', async () => {
    const store = await open();
    const ada = await createAccount(store, { name: 'Ada' });
    const bob = await createAccount(store, { name: 'Bob' });
    const created = await createKey(store, { accountId: ada.accountId });
    await expect(updateKey(store, ada.accountId, created.hash, { name: '  ' }, context)).rejects.toThrow(/^name/);
    await expect(updateKey(store, ada.accountId, created.hash, { limit: { limit: -1n, reset: null } }, context)).rejects.toThrow(/^limit/);
    expect(await updateKey(store, bob.accountId, created.hash, { name: 'stolen' }, context)).toBeNull();
    await revokeKey(store, { id: created.id });
    expect(await updateKey(store, ada.accountId, created.hash, { name: 'late' }, context)).toBeNull();
    expect((await readAudit(store.db, bob.accountId, { limit: 10 })).events.some((event) => event.action === 'key.update')).toBe(false);
  });
});
