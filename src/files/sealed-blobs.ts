import { randomHex } from '../core/random-hex.js';
import type { BlobStore, CompleteBlob } from './blob-store.js';
import { DATA_KEY_LIFETIME_MS, type KeyStore } from './key-store.js';
import { plainChunks } from './plain-chunks.js';
import { BrokenSealError, openRecord, sealRecord } from './sealing.js';

/** A value sealed into a complete blob. */
export interface SealedBlob {
  id: string;
  keyId: string;
  bytes: number;
  createdAt: number;
  /** When its data key is destroyed, and the blob swept: past this nothing can read it. */
  destroyAt: number;
}

/** A readable blob: its size, and its plaintext chunk by chunk, each checked before it is handed on. */
export interface OpenedBlob {
  bytes: number;
  content: AsyncIterable<Buffer>;
}

/**
 * What a chunk is sealed for: its blob, its position and whether it is the last. Chunks therefore
 * open only in their own blob, at their own place, and a blob cut short (its last chunks dropped)
 * or with chunks swapped does not open.
 */
export function chunkContext(blobId: string, index: number, final: boolean): string {
  return `blob:${blobId}:chunk:${index}:${final ? 'last' : 'more'}`;
}

/**
 * Values sealed into blobs: each under a data key of its own from the key store (AES-256-GCM), cut
 * into chunks sealed one by one as the bytes arrive, so neither writing nor reading holds more than
 * a chunk. A value that fails to be written (its source fails, the database fails) leaves nothing.
 */
export class SealedBlobs {
  constructor(
    private readonly blobs: BlobStore,
    private readonly keys: KeyStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Seals `content` into a new complete blob. Its data key comes first: while the key store cannot
   * be reached this throws its 503 before anything is written. Whatever `content` throws (a size
   * limit, a caller gone) is thrown again once what was written is deleted.
   */
  async write(content: AsyncIterable<Uint8Array>): Promise<SealedBlob> {
    const createdAt = this.now();
    const dataKey = await this.keys.create({ destroyAt: createdAt + DATA_KEY_LIFETIME_MS });
    const id = `blob_${randomHex(16)}`;
    let chunks = 0;
    let bytes = 0;
    try {
      await this.blobs.begin({ id, keyId: dataKey.id, createdAt, expiresAt: dataKey.destroyAt });
      for await (const chunk of plainChunks(content)) {
        await this.blobs.putChunk(id, chunks, sealRecord(dataKey.key, chunk.bytes, chunkContext(id, chunks, chunk.final)));
        chunks += 1;
        bytes += chunk.bytes.length;
      }
      await this.blobs.complete(id, { chunks, bytes });
    } catch (error) {
      await this.remove({ id, keyId: dataKey.id }).catch(() => undefined);
      throw error;
    }
    return { id, keyId: dataKey.id, bytes, createdAt, destroyAt: dataKey.destroyAt };
  }

  /**
   * Blob `id` to read, or null when it is gone, expired or its key destroyed. Its first chunk is
   * opened here, so a blob that does not open fails before any byte is handed on; a later chunk
   * that does not open ends the content with a BrokenSealError. Throws the key store's 503 while it
   * cannot be reached.
   */
  async open(id: string): Promise<OpenedBlob | null> {
    const blob = await this.blobs.find(id, this.now());
    if (!blob) return null;
    const dataKey = await this.keys.read(blob.keyId);
    if (!dataKey) return null;
    if (blob.chunks < 1) throw new BrokenSealError(`blob ${blob.id}`);
    const first = await this.#openChunk(blob, dataKey.key, 0);
    return { bytes: blob.bytes, content: this.#content(blob, dataKey.key, first) };
  }

  /** Deletes the blob, then destroys its key; a key the key store cannot destroy now still goes at its destroy time. */
  async remove(blob: { id: string; keyId: string }): Promise<void> {
    await this.blobs.delete(blob.id);
    await this.keys.destroy(blob.keyId).catch(() => undefined);
  }

  async *#content(blob: CompleteBlob, key: Buffer, first: Buffer): AsyncGenerator<Buffer> {
    let total = first.length;
    yield first;
    for (let index = 1; index < blob.chunks; index += 1) {
      const chunk = await this.#openChunk(blob, key, index);
      total += chunk.length;
      yield chunk;
    }
    if (total !== blob.bytes) throw new BrokenSealError(`blob ${blob.id}: ${total} bytes where ${blob.bytes} were recorded`);
  }

  async #openChunk(blob: CompleteBlob, key: Buffer, index: number): Promise<Buffer> {
    const context = chunkContext(blob.id, index, index === blob.chunks - 1);
    const sealed = await this.blobs.chunk(blob.id, index);
    if (!sealed) throw new BrokenSealError(context);
    return openRecord(key, sealed, context);
  }
}
