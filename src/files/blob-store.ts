/** What a blob's header records when it is begun. */
export interface BlobHeader {
  id: string;
  /** The data key sealing its chunks, in the key store. */
  keyId: string;
  createdAt: number;
  /** When the sweeper deletes it, complete or not. */
  expiresAt: number;
}

/** A complete blob: how many chunks it has and how many plaintext bytes they hold. */
export interface CompleteBlob extends BlobHeader {
  chunks: number;
  bytes: number;
}

/**
 * Where sealed bytes are kept: a blob is a header and numbered chunks, each sealed on its own (see
 * sealed-blobs.ts). This layer never sees a key or a plaintext byte. A blob is readable only once
 * completed; one begun and never completed (an upload that failed, a process that died) is
 * deleted by whoever began it or, at its expiry, by the sweeper.
 */
export interface BlobStore {
  begin(header: BlobHeader): Promise<void>;
  /** Stores chunk `index` (from 0) of a begun blob. */
  putChunk(id: string, index: number, sealed: Buffer): Promise<void>;
  /** Marks the blob complete with its `chunks` chunks holding `bytes` plaintext bytes. */
  complete(id: string, summary: { chunks: number; bytes: number }): Promise<void>;
  /** The blob if it is complete and not expired at `now`, else null. */
  find(id: string, now: number): Promise<CompleteBlob | null>;
  /** The sealed bytes of chunk `index`, or null when there is none. */
  chunk(id: string, index: number): Promise<Buffer | null>;
  /** Deletes the blob and its chunks (nothing when it is gone already). */
  delete(id: string): Promise<void>;
  /** Deletes up to `limit` blobs expired at `now`, chunks first; returns how many. */
  deleteExpired(now: number, limit: number): Promise<number>;
}
