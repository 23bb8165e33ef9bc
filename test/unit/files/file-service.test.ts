import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { createDatabaseBlobStore } from '../../../src/files/database-blob-store.js';
import { FILE_LIFETIME_MS, FileService } from '../../../src/files/file-service.js';
import type { KeyStore } from '../../../src/files/key-store.js';
import { CHUNK_BYTES } from '../../../src/files/plain-chunks.js';
import { BrokenSealError } from '../../../src/files/sealing.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { KEY_STORE_MIGRATIONS } from '../../../src/files/key-store-schema.js';
import { keyStoreOpener } from '../../support/key-store-engines.js';
import { STORE_ENGINES, storeOpener } from '../../support/store-engines.js';

/** `bytes` of a repeating pattern, arriving in pieces of `piece` bytes. */
async function* content(bytes: number, piece = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes; offset += piece) {
    yield Uint8Array.from({ length: Math.min(piece, bytes - offset) }, (_value, index) => (offset + index) % 251);
  }
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

const DETAILS = { accountId: 'acct_a', filename: 'input.jsonl', purpose: 'batch' as const, contentType: 'application/jsonl' };

async function rowCounts(store: Store): Promise<{ files: number; blobs: number; chunks: number }> {
  const count = async (table: 'stored_files' | 'blobs' | 'blob_chunks') =>
    Number((await store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { files: await count('stored_files'), blobs: await count('blobs'), chunks: await count('blob_chunks') };
}

/** The data keys recorded in the key store at `url`, destroyed or not yet. */
async function keyCount(url: string): Promise<number> {
  const store = await openStore(url, { migrations: KEY_STORE_MIGRATIONS });
  try {
    const keys = store.db.withTables<{ data_keys: { id: string } }>();
    return (await keys.selectFrom('data_keys').select('id').execute()).length;
  } finally {
    await store.close();
  }
}

async function refusal(work: Promise<unknown>): Promise<GatewayError> {
  const error = await work.then(() => undefined, (thrown: unknown) => thrown);
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe.each(STORE_ENGINES)('stored files on $name', (engine) => {
  const openMain = storeOpener(engine);
  const openKeys = keyStoreOpener(engine);
  const clock = { now: 1_800_000_000_000 };

  async function setup(options: { maxUploadBytes?: number } = {}): Promise<{ store: Store; keyStore: KeyStore; keysUrl: string; files: FileService }> {
    const store = await openMain();
    const { keyStore, url } = await openKeys({ now: () => clock.now });
    const files = new FileService({ store, blobs: createDatabaseBlobStore(store), keys: keyStore, maxUploadBytes: options.maxUploadBytes ?? 8 * CHUNK_BYTES, now: () => clock.now });
    return { store, keyStore, keysUrl: url, files };
  }

  it('a file of several chunks reads back byte for byte, with its record', async () => {
    const { files } = await setup();
    const size = 2 * CHUNK_BYTES + 12_345;
    const stored = await files.create(content(size, 100_000), DETAILS);
    expect(stored).toMatchObject({ ...DETAILS, bytes: size, createdAt: clock.now, expiresAt: clock.now + FILE_LIFETIME_MS });
    expect(stored.id).toMatch(/^file-[0-9a-z]{32}$/);
    expect(await files.get('acct_a', stored.id)).toEqual(stored);
    const read = await files.read('acct_a', stored.id);
    expect((await collect(read.content)).equals(await collect(content(size)))).toBe(true);
  });

  it('an empty file is stored and reads back empty', async () => {
    const { files } = await setup();
    const stored = await files.create(content(0), DETAILS);
    expect(stored.bytes).toBe(0);
    expect(await collect((await files.read('acct_a', stored.id)).content)).toHaveLength(0);
  });

  it('the stored chunks hold none of the plaintext', async () => {
    const { store, files } = await setup();
    const text = Buffer.from('{"custom_id":"secret-line","method":"POST"}\n'.repeat(100));
    await files.create((async function* () { yield text; })(), DETAILS);
    const chunks = await store.db.selectFrom('blob_chunks').select('sealed').execute();
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.sealed.includes(Buffer.from('secret-line'))).toBe(false);
  });

  it('another account\'s, an unknown, a malformed, a deleted and an expired id are one 404', async () => {
    const { files } = await setup();
    const mine = await files.create(content(10), DETAILS);
    const deleted = await files.create(content(10), DETAILS);
    await files.delete('acct_a', deleted.id);
    const expiring = await files.create(content(10), { ...DETAILS, lifetimeMs: 3_600_000 });
    clock.now += 3_600_000;
    const attempts = [
      ['acct_b', mine.id], ['acct_a', 'file-00000000000000000000000000000000'], ['acct_a', 'file_../etc'], ['acct_a', ''],
      ['acct_a', deleted.id], ['acct_a', expiring.id],
    ] as const;
    for (const [account, id] of attempts) {
      for (const work of [() => files.get(account, id), () => files.read(account, id), () => files.delete(account, id)]) {
        expect(await refusal(work())).toMatchObject({ status: 404, code: 'not_found', message: 'No such file' });
      }
    }
    expect((await files.get('acct_a', mine.id)).id).toBe(mine.id);
    clock.now += FILE_LIFETIME_MS;
    expect(await refusal(files.read('acct_a', mine.id))).toMatchObject({ status: 404 });
    expect((await files.list('acct_a', { limit: 10, order: 'desc' })).files).toEqual([]);
  });

  it('lists newest first a page at a time, the last id the cursor; oldest first and by purpose on request', async () => {
    const { files } = await setup();
    const created = [];
    for (const purpose of ['batch', 'user_data', 'batch', 'vision'] as const) {
      created.push(await files.create(content(1), { ...DETAILS, purpose }));
      clock.now += 1_000;
    }
    await files.create(content(1), { ...DETAILS, accountId: 'acct_b' });
    const ids = created.map((file) => file.id);
    const first = await files.list('acct_a', { limit: 3, order: 'desc' });
    expect(first.files.map((file) => file.id)).toEqual(ids.slice(1).reverse());
    expect(first.hasMore).toBe(true);
    const second = await files.list('acct_a', { limit: 3, order: 'desc', after: ids[1] ?? '' });
    expect(second).toEqual({ files: [created[0]], hasMore: false });
    expect((await files.list('acct_a', { limit: 10, order: 'asc' })).files.map((file) => file.id)).toEqual(ids);
    expect((await files.list('acct_a', { limit: 10, order: 'desc', purpose: 'batch' })).files.map((file) => file.id)).toEqual([ids[2], ids[0]]);
  });

  it('an upload over the limit is the 413 naming file, and nothing of it is stored, its key destroyed', async () => {
    const { store, keysUrl, files } = await setup({ maxUploadBytes: CHUNK_BYTES + 10 });
    const error = await refusal(files.create(content(3 * CHUNK_BYTES), DETAILS));
    expect(error).toMatchObject({ status: 413, code: 'payload_too_large', metadata: { field: 'file' } });
    expect(error.message).toMatch(/^file: /);
    expect(await rowCounts(store)).toEqual({ files: 0, blobs: 0, chunks: 0 });
    expect(await keyCount(keysUrl)).toBe(0);
    const exact = await files.create(content(CHUNK_BYTES + 10), DETAILS);
    expect(exact.bytes).toBe(CHUNK_BYTES + 10);
  });

  it('a source that fails half-way leaves nothing stored', async () => {
    const { store, keysUrl, files } = await setup();
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield* content(CHUNK_BYTES * 2);
      throw new Error('the caller left');
    }
    await expect(files.create(failing(), DETAILS)).rejects.toThrow('the caller left');
    expect(await rowCounts(store)).toEqual({ files: 0, blobs: 0, chunks: 0 });
    expect(await keyCount(keysUrl)).toBe(0);
  });

  it('while the key store cannot be reached, uploads and reads are the 503 and nothing is stored', async () => {
    const { store, keyStore, files } = await setup();
    const stored = await files.create(content(100), DETAILS);
    const before = await rowCounts(store);
    await keyStore.close();
    expect(await refusal(files.create(content(CHUNK_BYTES * 2), DETAILS))).toMatchObject({ status: 503, code: 'server_unavailable', errorType: 'server' });
    expect(await refusal(files.read('acct_a', stored.id))).toMatchObject({ status: 503, code: 'server_unavailable' });
    expect(await rowCounts(store)).toEqual(before);
    expect((await files.get('acct_a', stored.id)).id).toBe(stored.id);
  });

  it('a deleted file takes its bytes and its key with it', async () => {
    const { store, keyStore, files } = await setup();
    const stored = await files.create(content(CHUNK_BYTES + 1), DETAILS);
    const blob = await store.db.selectFrom('blobs').select('key_id').executeTakeFirstOrThrow();
    expect(await files.delete('acct_a', stored.id)).toEqual(stored);
    expect(await rowCounts(store)).toEqual({ files: 0, blobs: 0, chunks: 0 });
    expect(await keyStore.read(blob.key_id)).toBeNull();
  });

  it('chunks swapped in the database, or the last one dropped, do not open', async () => {
    const { store, files } = await setup();
    const stored = await files.create(content(2 * CHUNK_BYTES + 1), DETAILS);
    const { blob_id: blobId } = await store.db.selectFrom('stored_files').select('blob_id').executeTakeFirstOrThrow();
    const chunk = async (seq: number) => (await store.db.selectFrom('blob_chunks').select('sealed').where('blob_id', '=', blobId).where('seq', '=', seq).executeTakeFirstOrThrow()).sealed;
    const [zero, one] = [await chunk(0), await chunk(1)];
    const put = (seq: number, sealed: Buffer) => store.write((tx) => tx.updateTable('blob_chunks').set({ sealed }).where('blob_id', '=', blobId).where('seq', '=', seq).execute());
    await put(0, one);
    await put(1, zero);
    await expect(files.read('acct_a', stored.id)).rejects.toBeInstanceOf(BrokenSealError);
    await put(0, zero);
    await put(1, one);
    await collect((await files.read('acct_a', stored.id)).content);
    await store.write(async (tx) => {
      await tx.deleteFrom('blob_chunks').where('blob_id', '=', blobId).where('seq', '=', 2).execute();
      await tx.updateTable('blobs').set({ chunks: 2, bytes: 2 * CHUNK_BYTES }).where('id', '=', blobId).execute();
    });
    const opened = await files.read('acct_a', stored.id);
    await expect(collect(opened.content)).rejects.toBeInstanceOf(BrokenSealError);
  });
});
