import type { Store } from '../store/store.js';
import type { BlobStore, CompleteBlob } from './blob-store.js';

/**
 * The BlobStore in the gateway's own database (both engines): a row per blob in `blobs`, a row per
 * sealed chunk in `blob_chunks` (see migrations/0008-stored-files.ts). Every write is its own short
 * transaction, so an upload never holds the database while its bytes arrive.
 */
export function createDatabaseBlobStore(store: Store): BlobStore {
  return {
    async begin(header) {
      await store.write((tx) => tx.insertInto('blobs')
        .values({ id: header.id, key_id: header.keyId, created_at: header.createdAt, expires_at: header.expiresAt, chunks: null, bytes: null })
        .execute());
    },

    async putChunk(id, index, sealed) {
      await store.write((tx) => tx.insertInto('blob_chunks').values({ blob_id: id, seq: index, sealed }).execute());
    },

    async complete(id, { chunks, bytes }) {
      await store.write((tx) => tx.updateTable('blobs').set({ chunks, bytes }).where('id', '=', id).execute());
    },

    async find(id, now) {
      const row = await store.db.selectFrom('blobs')
        .select(['id', 'key_id', 'created_at', 'expires_at', 'chunks', 'bytes'])
        .where('id', '=', id)
        .where('expires_at', '>', now)
        .where('chunks', 'is not', null)
        .executeTakeFirst();
      if (!row || row.chunks === null || row.bytes === null) return null;
      const blob: CompleteBlob = { id: row.id, keyId: row.key_id, createdAt: row.created_at, expiresAt: row.expires_at, chunks: row.chunks, bytes: row.bytes };
      return blob;
    },

    async chunk(id, index) {
      const row = await store.db.selectFrom('blob_chunks').select('sealed').where('blob_id', '=', id).where('seq', '=', index).executeTakeFirst();
      return row?.sealed ?? null;
    },

    async delete(id) {
      await store.write(async (tx) => {
        await tx.deleteFrom('blob_chunks').where('blob_id', '=', id).execute();
        await tx.deleteFrom('blobs').where('id', '=', id).execute();
      });
    },

    async deleteExpired(now, limit) {
      return store.write(async (tx) => {
        const due = await tx.selectFrom('blobs').select('id').where('expires_at', '<=', now).limit(limit).execute();
        const ids = due.map((row) => row.id);
        if (ids.length === 0) return 0;
        await tx.deleteFrom('blob_chunks').where('blob_id', 'in', ids).execute();
        // what this sweep deleted: another instance sweeping at once may have taken some of them
        const deleted = await tx.deleteFrom('blobs').where('id', 'in', ids).executeTakeFirst();
        return Number(deleted.numDeletedRows);
      });
    },
  };
}
