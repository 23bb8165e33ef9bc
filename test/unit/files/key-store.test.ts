import { describe, expect, it } from 'vitest';
import { MasterKeyMismatchError, openKeyStore } from '../../../src/files/database-key-store.js';
import { DATA_KEY_LIFETIME_MS } from '../../../src/files/key-store.js';
import { newKey } from '../../../src/files/sealing.js';
import { GatewayError } from '../../../src/core/errors.js';
import { openStore } from '../../../src/store/store.js';
import { KEY_STORE_MIGRATIONS } from '../../../src/files/key-store-schema.js';
import { keyStoreOpener } from '../../support/key-store-engines.js';
import { STORE_ENGINES } from '../../support/store-engines.js';

const HOUR = 60 * 60 * 1000;

describe.each(STORE_ENGINES)('key store on $name', (engine) => {
  const open = keyStoreOpener(engine);

  it('a data key is recorded wrapped: read back whole, never stored in the clear', async () => {
    const { keyStore, url } = await open();
    const created = await keyStore.create({ destroyAt: Date.now() + DATA_KEY_LIFETIME_MS });
    expect(created.key).toHaveLength(32);
    expect(await keyStore.read(created.id)).toEqual(created);
    const raw = await openStore(url, { migrations: KEY_STORE_MIGRATIONS });
    try {
      const rows = await raw.db.withTables<{ data_keys: { id: string; wrapped: Buffer; iv: Buffer; tag: Buffer } }>()
        .selectFrom('data_keys').select(['id', 'wrapped', 'iv', 'tag']).execute();
      expect(rows.map((row) => row.id)).toEqual([created.id]);
      expect(rows[0]?.wrapped.equals(created.key)).toBe(false);
      expect(rows[0]?.iv).toHaveLength(12);
      expect(rows[0]?.tag).toHaveLength(16);
    } finally {
      await raw.close();
    }
  });

  it('a destroyed key is gone for good; destroying it again does nothing', async () => {
    const { keyStore } = await open();
    const created = await keyStore.create({ destroyAt: Date.now() + HOUR });
    await keyStore.destroy(created.id);
    expect(await keyStore.read(created.id)).toBeNull();
    await keyStore.destroy(created.id);
    expect(await keyStore.read('dk_unknown')).toBeNull();
  });

  it('a key past its destroy time is never handed out, and the sweep destroys exactly the keys due', async () => {
    let now = 1_000_000_000_000;
    const { keyStore } = await open({ now: () => now });
    const early = await keyStore.create({ destroyAt: now + HOUR });
    const late = await keyStore.create({ destroyAt: now + 2 * HOUR });
    now += HOUR;
    expect(await keyStore.read(early.id)).toBeNull();
    expect(await keyStore.read(late.id)).not.toBeNull();
    expect(await keyStore.destroyExpired(100)).toBe(1);
    expect(await keyStore.destroyExpired(100)).toBe(0);
    now += HOUR;
    expect(await keyStore.destroyExpired(100)).toBe(1);
  });

  it('the sweep destroys in batches of its limit', async () => {
    const now = Date.now();
    const { keyStore } = await open({ now: () => now + 2 * HOUR });
    for (let index = 0; index < 5; index += 1) await keyStore.create({ destroyAt: now + HOUR });
    expect(await keyStore.destroyExpired(2)).toBe(2);
    expect(await keyStore.destroyExpired(2)).toBe(2);
    expect(await keyStore.destroyExpired(2)).toBe(1);
  });

  it('opened again with the same master key it reads its keys; with another one it refuses to open', async () => {
    const { keyStore, url, masterKey } = await open();
    const created = await keyStore.create({ destroyAt: Date.now() + HOUR });
    await keyStore.close();
    const again = await openKeyStore(url, masterKey);
    try {
      expect((await again.read(created.id))?.key).toEqual(created.key);
    } finally {
      await again.close();
    }
    await expect(openKeyStore(url, newKey())).rejects.toBeInstanceOf(MasterKeyMismatchError);
  });

  it('a store that cannot be reached answers 503 server, naming no key', async () => {
    const warnings: unknown[] = [];
    const { keyStore } = await open({ logger: { warn: (detail: unknown) => void warnings.push(detail) } });
    const created = await keyStore.create({ destroyAt: Date.now() + HOUR });
    await keyStore.close();
    for (const attempt of [() => keyStore.create({ destroyAt: Date.now() + HOUR }), () => keyStore.read(created.id), () => keyStore.destroy(created.id), () => keyStore.destroyExpired(10)]) {
      const error = await attempt().catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ code: 'server_unavailable', status: 503, errorType: 'server', headers: { 'Retry-After': '5' } });
    }
    expect(warnings).toHaveLength(4);
    await expect(keyStore.ping()).rejects.toThrow();
  });
});
