import { describe, expect, it } from 'vitest';
import { createDatabaseBlobStore } from '../../../src/files/database-blob-store.js';
import { FILE_LIFETIME_MS, FileService } from '../../../src/files/file-service.js';
import { SWEEP_INTERVAL_MS, fileSweeper, sweepExpired } from '../../../src/files/file-sweeper.js';
import { DATA_KEY_LIFETIME_MS } from '../../../src/files/key-store.js';
import { CHUNK_BYTES } from '../../../src/files/plain-chunks.js';
import { chunkContext } from '../../../src/files/sealed-blobs.js';
import { openRecord } from '../../../src/files/sealing.js';
import { keyStoreOpener } from '../../support/key-store-engines.js';
import { STORE_ENGINES, storeOpener } from '../../support/store-engines.js';

const HOUR = 60 * 60 * 1000;
const quiet = { info: () => undefined, error: () => undefined };

async function* bytes(size: number): AsyncGenerator<Uint8Array> {
  yield Buffer.alloc(size, 0x5a);
}

describe('the sweep schedule', () => {
  it('a data key lives less than 50 hours, sweep interval included, and outlives the file it seals', () => {
    expect(DATA_KEY_LIFETIME_MS + SWEEP_INTERVAL_MS).toBeLessThanOrEqual(50 * HOUR);
    expect(DATA_KEY_LIFETIME_MS).toBeGreaterThan(FILE_LIFETIME_MS);
  });
});

describe.each(STORE_ENGINES)('the sweeper on $name', (engine) => {
  const openMain = storeOpener(engine);
  const openKeys = keyStoreOpener(engine);

  async function setup() {
    const clock = { now: 1_800_000_000_000 };
    const store = await openMain();
    const { keyStore } = await openKeys({ now: () => clock.now });
    const files = new FileService({ store, blobs: createDatabaseBlobStore(store), keys: keyStore, maxUploadBytes: 4 * CHUNK_BYTES, now: () => clock.now });
    return { clock, store, keyStore, files };
  }

  it('by 50 hours after the write the key is destroyed and the file\'s rows are gone; a copy of its chunks kept aside no longer opens', async () => {
    const { clock, store, keyStore, files } = await setup();
    const stored = await files.create(bytes(CHUNK_BYTES + 7), { accountId: 'acct_a', filename: 'a.bin', purpose: 'user_data', contentType: 'application/octet-stream' });
    const blob = await store.db.selectFrom('blobs').select(['id', 'key_id']).executeTakeFirstOrThrow();
    const backup = await store.db.selectFrom('blob_chunks').select(['seq', 'sealed']).orderBy('seq').execute();
    const dataKey = await keyStore.read(blob.key_id);
    expect(dataKey).not.toBeNull();

    clock.now += FILE_LIFETIME_MS;
    expect(await sweepExpired(files, keyStore)).toEqual({ keys: 0, files: 1, blobs: 0 });
    await expect(files.get('acct_a', stored.id)).rejects.toMatchObject({ status: 404 });

    clock.now += DATA_KEY_LIFETIME_MS - FILE_LIFETIME_MS;
    expect(await sweepExpired(files, keyStore)).toEqual({ keys: 1, files: 0, blobs: 1 });
    expect(await keyStore.read(blob.key_id)).toBeNull();
    expect(await store.db.selectFrom('blob_chunks').select('seq').execute()).toEqual([]);
    // what a backup taken before the sweep holds: sealed chunks, and no key anywhere to open them
    expect(backup).toHaveLength(2);
    expect(() => openRecord(Buffer.alloc(32), backup[0]?.sealed ?? Buffer.alloc(0), chunkContext(blob.id, 0, false))).toThrow();
  });

  it('a second sweep, or one on another instance, finds nothing left to do', async () => {
    const { clock, keyStore, files } = await setup();
    for (let index = 0; index < 3; index += 1) await files.create(bytes(10), { accountId: 'acct_a', filename: 'a.txt', purpose: 'user_data', contentType: 'text/plain' });
    clock.now += DATA_KEY_LIFETIME_MS;
    const [first, second] = await Promise.all([sweepExpired(files, keyStore), sweepExpired(files, keyStore)]);
    expect((first?.keys ?? 0) + (second?.keys ?? 0)).toBe(3);
    expect((first?.blobs ?? 0) + (second?.blobs ?? 0)).toBe(3);
    expect(await sweepExpired(files, keyStore)).toEqual({ keys: 0, files: 0, blobs: 0 });
  });

  it('an upload begun and never finished (a process that died) is swept with its key', async () => {
    const { clock, store, keyStore, files } = await setup();
    const blobs = createDatabaseBlobStore(store);
    const dataKey = await keyStore.create({ destroyAt: clock.now + DATA_KEY_LIFETIME_MS });
    await blobs.begin({ id: 'blob_orphan', keyId: dataKey.id, createdAt: clock.now, expiresAt: dataKey.destroyAt });
    await blobs.putChunk('blob_orphan', 0, Buffer.from('sealed bytes'));
    clock.now += DATA_KEY_LIFETIME_MS;
    expect(await sweepExpired(files, keyStore)).toEqual({ keys: 1, files: 0, blobs: 1 });
    expect(await store.db.selectFrom('blob_chunks').select('seq').execute()).toEqual([]);
  });

  it('keys are destroyed even while the file rows cannot be swept, and the failure is then reported', async () => {
    const { clock, keyStore, files } = await setup();
    await files.create(bytes(10), { accountId: 'acct_a', filename: 'a.txt', purpose: 'user_data', contentType: 'text/plain' });
    clock.now += DATA_KEY_LIFETIME_MS;
    const unreachable = { sweep: async () => { throw new Error('database unreachable'); } };
    await expect(sweepExpired(unreachable, keyStore)).rejects.toThrow('database unreachable');
    expect(await keyStore.destroyExpired(10)).toBe(0);
    expect(await sweepExpired(files, keyStore)).toEqual({ keys: 0, files: 1, blobs: 1 });
  });

  it('runs as a background task whose failed rounds are logged, never thrown', async () => {
    const { keyStore, files } = await setup();
    const errors: unknown[] = [];
    await keyStore.close();
    const task = fileSweeper(files, keyStore, { logger: { info: quiet.info, error: (detail: unknown) => void errors.push(detail) }, intervalMs: 60_000 });
    await task.start();
    await task.stop();
    expect(errors).toHaveLength(1);
  });
});
