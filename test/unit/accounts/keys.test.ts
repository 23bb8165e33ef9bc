import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccount, createKey, importLegacyKey, revokeKey, setAccountSuspended } from '../../../src/accounts/accounts.js';
import { KeyCache } from '../../../src/accounts/key-cache.js';
import { createKeyDirectory } from '../../../src/accounts/key-directory.js';
import { setWorkspaceRoutingDefaults } from '../../../src/accounts/workspace-routing.js';
import { STORE_ENGINES } from '../../support/store-engines.js';
import { generateKey, isWellFormedKey, labelKey } from '../../../src/accounts/key-format.js';
import type { KeyContext } from '../../../src/accounts/types.js';
import { openStore, type Store } from '../../../src/store/store.js';

const opened: Store[] = [];
const dirs: string[] = [];

async function open(url = 'sqlite::memory:'): Promise<Store> {
  const store = await openStore(url);
  opened.push(store);
  return store;
}

function fileUrl(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-keys-'));
  dirs.push(dir);
  return `sqlite:${join(dir, 'db.sqlite')}`;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('key format', () => {
  it('new keys are sk-svc-v1- followed by 64 lowercase hex characters', () => {
    const key = generateKey();
    expect(key).toMatch(/^sk-svc-v1-[0-9a-f]{64}$/);
    expect(generateKey()).not.toBe(key);
  });

  it('the label keeps the prefix, the first three and the last three hex characters', () => {
    expect(labelKey(`sk-svc-v1-abc${'0'.repeat(58)}f09`)).toBe('sk-svc-v1-abc...f09');
    expect(labelKey(`sk-legacy-v1-123${'0'.repeat(58)}456`)).toBe('sk-legacy-v1-123...456');
  });

  it('only the current and legacy prefixes with exactly 64 lowercase hex are well formed', () => {
    const hex = 'a'.repeat(64);
    expect(isWellFormedKey(`sk-svc-v1-${hex}`)).toBe(true);
    expect(isWellFormedKey(`sk-legacy-v1-${hex}`)).toBe(true);
    expect(isWellFormedKey(`sk-svc-v1-${hex}a`)).toBe(false);
    expect(isWellFormedKey(`sk-svc-v1-${'A'.repeat(64)}`)).toBe(false);
    expect(isWellFormedKey(`sk-svc-v2-${hex}`)).toBe(false);
    expect(isWellFormedKey(` sk-svc-v1-${hex}`)).toBe(false);
  });
});

describe('authentication', () => {
  it('a new key authenticates and only its SHA-256 is stored', async () => {
    const store = await open();
    const created = await createAccount(store, { name: 'Ada', creditsUsd: '5' });
    const keys = createKeyDirectory(store);
    const context = await keys.authenticate(created.key);
    expect(context).toMatchObject({ keyId: created.keyId, accountId: created.accountId, workspaceId: created.workspaceId, management: false, scopeLimits: {} });
    const rows = await store.db.selectFrom('api_keys').selectAll().execute();
    expect(rows[0]?.hash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(created.key.slice('sk-svc-v1-'.length));
  });

  it('a legacy sk-legacy-v1- key keeps working', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada' });
    const legacy = `sk-legacy-v1-${'3e'.repeat(32)}`;
    const keyId = await importLegacyKey(store, legacy, { accountId });
    const context = await createKeyDirectory(store).authenticate(legacy);
    expect(context?.keyId).toBe(keyId);
    expect(context?.label).toBe('sk-legacy-v1-3e3...e3e');
  });

  it('missing, malformed and unknown keys get null', async () => {
    const store = await open();
    const keys = createKeyDirectory(store);
    expect(await keys.authenticate(undefined)).toBeNull();
    expect(await keys.authenticate('')).toBeNull();
    expect(await keys.authenticate('Bearer nonsense')).toBeNull();
    expect(await keys.authenticate(generateKey())).toBeNull();
  });

  it('malformed values are rejected without a database lookup', async () => {
    const store = await openStore('sqlite::memory:');
    const keys = createKeyDirectory(store);
    await store.close();
    expect(await keys.authenticate('sk-svc-v1-short')).toBeNull();
    await expect(keys.authenticate(generateKey())).rejects.toThrow();
  });

  it('a revoked key gets null at once while other keys keep working', async () => {
    const store = await open();
    const created = await createAccount(store, { name: 'Ada' });
    const other = await createKey(store, { accountId: created.accountId });
    const keys = createKeyDirectory(store);
    expect(await keys.authenticate(created.key)).not.toBeNull();
    expect(await revokeKey(store, { id: created.keyId })).toBe(true);
    expect(await keys.authenticate(created.key)).toBeNull();
    expect(await keys.authenticate(other.key)).not.toBeNull();
    expect(await revokeKey(store, { id: created.keyId })).toBe(false);
  });

  it('an expired key gets null, even when cached', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada' });
    const expiresAt = new Date(Date.now() + 60_000);
    const issued = await createKey(store, { accountId, expiresAt });
    let now = new Date();
    const keys = createKeyDirectory(store, { now: () => now });
    expect((await keys.authenticate(issued.key))?.expiresAt?.getTime()).toBe(expiresAt.getTime());
    now = new Date(expiresAt.getTime());
    expect(await keys.authenticate(issued.key)).toBeNull();
  });

  it('a suspended account’s keys get null at once', async () => {
    const store = await open();
    const created = await createAccount(store, { name: 'Ada' });
    const keys = createKeyDirectory(store);
    expect(await keys.authenticate(created.key)).not.toBeNull();
    await setAccountSuspended(store, created.accountId, true);
    expect(await keys.authenticate(created.key)).toBeNull();
    await setAccountSuspended(store, created.accountId, false);
    expect(await keys.authenticate(created.key)).not.toBeNull();
  });

  it('revocation by another process on the same SQLite file is honoured at once with a warm cache', async () => {
    const url = fileUrl();
    const server = await open(url);
    const admin = await open(url);
    const created = await createAccount(admin, { name: 'Ada' });
    const keys = createKeyDirectory(server);
    expect(await keys.authenticate(created.key)).not.toBeNull();
    expect(await keys.authenticate(created.key)).not.toBeNull();
    await revokeKey(admin, { id: created.keyId });
    expect(await keys.authenticate(created.key)).toBeNull();
  });

  it('suspension by another process is honoured at once with a warm cache', async () => {
    const url = fileUrl();
    const server = await open(url);
    const admin = await open(url);
    const created = await createAccount(admin, { name: 'Ada' });
    const keys = createKeyDirectory(server);
    expect(await keys.authenticate(created.key)).not.toBeNull();
    await setAccountSuspended(admin, created.accountId, true);
    expect(await keys.authenticate(created.key)).toBeNull();
  });
});

describe('remembered key hashes', () => {
  const sha256 = (raw: string): string => createHash('sha256').update(raw).digest('hex');

  it('a key that authenticated has its hash remembered; a well-formed unknown key does not', async () => {
    const store = await open();
    const created = await createAccount(store, { name: 'Ada' });
    const unknown = generateKey();
    const cache = new KeyCache();
    const keys = createKeyDirectory(store, { cache });
    for (let sent = 0; sent < 3; sent += 1) {
      expect((await keys.authenticate(created.key))?.keyId).toBe(created.keyId);
      expect(await keys.authenticate(unknown)).toBeNull();
    }
    expect(cache.hashOf(created.key)).toBe(sha256(created.key));
    expect(cache.hashOf(unknown)).toBeUndefined();
  });

  it('a key whose hash is remembered gets null at once when revoked, and its hash is forgotten with the cache', async () => {
    const store = await open();
    const created = await createAccount(store, { name: 'Ada' });
    const cache = new KeyCache();
    const keys = createKeyDirectory(store, { cache });
    await keys.authenticate(created.key);
    expect(await keys.authenticate(created.key)).not.toBeNull();
    expect(cache.hashOf(created.key)).toBeDefined();
    await revokeKey(store, { id: created.keyId });
    expect(await keys.authenticate(created.key)).toBeNull();
    expect(cache.hashOf(created.key)).toBeUndefined();
  });
});

describe.each(STORE_ENGINES)('key cache freshness on $name', (engine) => {
  it('a revocation, a suspension and new routing defaults written by another process reach a warm cache on the next request', async () => {
    const [server, admin] = await engine.openPair();
    try {
      const created = await createAccount(admin, { name: 'Ada' });
      const other = await createAccount(admin, { name: 'Bo' });
      const keys = createKeyDirectory(server, { cache: new KeyCache() });
      expect(await keys.authenticate(created.key)).not.toBeNull();
      expect(await keys.authenticate(created.key)).not.toBeNull();
      await setWorkspaceRoutingDefaults(admin, created.workspaceId, { sort: 'price' });
      await new Promise((resolve) => setImmediate(resolve));
      expect((await keys.authenticate(created.key))?.routingDefaults).toMatchObject({ sort: 'price' });
      await revokeKey(admin, { id: created.keyId });
      await new Promise((resolve) => setImmediate(resolve));
      expect(await keys.authenticate(created.key)).toBeNull();
      expect(await keys.authenticate(other.key)).not.toBeNull();
      await setAccountSuspended(admin, other.accountId, true);
      await new Promise((resolve) => setImmediate(resolve));
      expect(await keys.authenticate(other.key)).toBeNull();
    } finally {
      await admin.close();
      await server.close();
    }
  });
});

describe('key cache', () => {
  const context = (keyId: string): KeyContext => ({
    keyId, hash: keyId, accountId: 'acct', workspaceId: 'ws', name: 'k', label: 'l', management: false, scopeLimits: {}, expiresAt: null,
  });

  it('holds at most its limit, dropping the least recently used', () => {
    const cache = new KeyCache(2);
    cache.set('a', context('a'), cache.epoch);
    cache.set('b', context('b'), cache.epoch);
    cache.get('a');
    cache.set('c', context('c'), cache.epoch);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.keyId).toBe('a');
  });

  it('a read that started before a clear does not refill the cache', () => {
    const cache = new KeyCache();
    const epoch = cache.epoch;
    cache.clear();
    cache.set('a', context('a'), epoch);
    expect(cache.get('a')).toBeUndefined();
  });

  it('remembers at most its limit of key hashes, the oldest dropped first, and none once cleared', () => {
    const cache = new KeyCache(2);
    for (const raw of ['a', 'b', 'c']) cache.rememberHash(raw, `hash-${raw}`, cache.epoch);
    expect(cache.hashOf('a')).toBeUndefined();
    expect([cache.hashOf('b'), cache.hashOf('c')]).toEqual(['hash-b', 'hash-c']);
    cache.clear();
    expect(cache.hashOf('c')).toBeUndefined();
  });

  it('a key hash read before a clear is not remembered after it', () => {
    const cache = new KeyCache();
    const epoch = cache.epoch;
    cache.observe(7);
    cache.rememberHash('a', 'hash-a', epoch);
    expect(cache.hashOf('a')).toBeUndefined();
  });

  it('a new key revision drops every entry', () => {
    const cache = new KeyCache();
    cache.observe(1);
    cache.set('a', context('a'), cache.epoch);
    cache.observe(1);
    expect(cache.get('a')).toBeDefined();
    cache.observe(2);
    expect(cache.get('a')).toBeUndefined();
  });
});
