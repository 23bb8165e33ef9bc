import { GatewayError } from '../core/errors.js';
import type { Store } from '../store/store.js';
import type { BlobStore } from './blob-store.js';
import { isFileId, newFileId } from './file-id.js';
import type { FilePurpose } from './file-purpose.js';
import { deleteExpiredFiles, deleteFile, findFile, insertFile, listFiles, type FileListQuery, type StoredFile } from './file-rows.js';
import type { KeyStore } from './key-store.js';
import { SealedBlobs, type SealedBlob } from './sealed-blobs.js';

/** A stored file lives 48 hours after storage, then answers 404 as if deleted (spec 02 Limits). */
export const FILE_LIFETIME_MS = 48 * 60 * 60 * 1000;

export interface FileServiceOptions {
  /** The gateway's database, holding the file rows. */
  store: Store;
  blobs: BlobStore;
  keys: KeyStore;
  /** Largest file accepted, in bytes (`settings.files.max_upload_bytes`). */
  maxUploadBytes: number;
  now?: () => number;
}

/** What a stored file is called and how it is served, beside its bytes. */
export interface FileDetails {
  accountId: string;
  filename: string;
  purpose: FilePurpose;
  contentType: string;
  /** A shorter life than 48 hours, in milliseconds. */
  lifetimeMs?: number;
}

/** One page of an account's files, and whether more follow it. */
export interface FilePage {
  files: StoredFile[];
  hasMore: boolean;
}

/** A stored file to read: its record, and its bytes as they are opened, chunk by chunk. */
export interface FileContent {
  file: StoredFile;
  content: AsyncIterable<Buffer>;
}

/**
 * The account's file store: bytes sealed into blobs as they arrive (stage), then named as the
 * account's file (publish) only once all of them are written, so no file is ever seen half-written.
 * Another account's, an unknown, malformed, deleted or expired id are one 404.
 */
export class FileService {
  readonly maxUploadBytes: number;
  readonly #store: Store;
  readonly #sealed: SealedBlobs;
  readonly #blobs: BlobStore;
  readonly #now: () => number;

  constructor(options: FileServiceOptions) {
    this.maxUploadBytes = options.maxUploadBytes;
    this.#store = options.store;
    this.#blobs = options.blobs;
    this.#now = options.now ?? Date.now;
    this.#sealed = new SealedBlobs(options.blobs, options.keys, this.#now);
  }

  /**
   * Seals `content` as it arrives, not yet any account's file. Past the upload limit this throws
   * the 413 naming `file`, and while the key store cannot be reached its 503, leaving nothing stored.
   */
  stage(content: AsyncIterable<Uint8Array>): Promise<SealedBlob> {
    return this.#sealed.write(withinLimit(content, this.maxUploadBytes));
  }

  /**
   * Names a staged blob as the account's file; from now on it is listed and read. A blob that
   * cannot be named is discarded.
   */
  async publish(blob: SealedBlob, details: FileDetails): Promise<StoredFile> {
    const createdAt = this.#now();
    const lifetime = Math.min(details.lifetimeMs ?? FILE_LIFETIME_MS, FILE_LIFETIME_MS);
    const file: StoredFile = {
      id: newFileId(createdAt),
      accountId: details.accountId,
      blobId: blob.id,
      filename: details.filename,
      purpose: details.purpose,
      contentType: details.contentType,
      bytes: blob.bytes,
      createdAt,
      expiresAt: Math.min(createdAt + lifetime, blob.destroyAt),
    };
    try {
      await insertFile(this.#store, file);
    } catch (error) {
      await this.discard(blob).catch(() => undefined);
      throw error;
    }
    return file;
  }

  /** Throws away a staged blob that will not be published (its key is destroyed with it). */
  discard(blob: SealedBlob): Promise<void> {
    return this.#sealed.remove(blob);
  }

  /** Stages and publishes in one go, for a caller that knows every detail before the bytes. */
  async create(content: AsyncIterable<Uint8Array>, details: FileDetails): Promise<StoredFile> {
    return this.publish(await this.stage(content), details);
  }

  /** One page of the account's files, in `query.order` (newest first by default). */
  async list(accountId: string, query: FileListQuery): Promise<FilePage> {
    const files = await listFiles(this.#store, accountId, { ...query, limit: query.limit + 1 }, this.#now());
    return { files: files.slice(0, query.limit), hasMore: files.length > query.limit };
  }

  /** The account's file `id`, or the 404. */
  async get(accountId: string, id: string): Promise<StoredFile> {
    const file = isFileId(id) ? await findFile(this.#store, accountId, id, this.#now()) : null;
    if (!file) throw noSuchFile();
    return file;
  }

  /** The account's file `id` with its bytes; the 404 when there is none, the key store's 503 while it is unreachable. */
  async read(accountId: string, id: string): Promise<FileContent> {
    const file = await this.get(accountId, id);
    const opened = await this.#sealed.open(file.blobId);
    if (!opened) throw noSuchFile();
    return { file, content: opened.content };
  }

  /** Deletes the account's file `id` (its bytes and their key with it) and answers what it was; the 404 when there is none. */
  async delete(accountId: string, id: string): Promise<StoredFile> {
    const file = isFileId(id) ? await deleteFile(this.#store, accountId, id, this.#now()) : null;
    if (!file) throw noSuchFile();
    const blob = await this.#blobs.find(file.blobId, this.#now());
    if (blob) await this.#sealed.remove(blob);
    return file;
  }

  /** Deletes up to `limit` expired file records and up to `limit` expired blobs; returns how many of each. */
  async sweep(limit: number): Promise<{ files: number; blobs: number }> {
    const now = this.#now();
    return { files: await deleteExpiredFiles(this.#store, now, limit), blobs: await this.#blobs.deleteExpired(now, limit) };
  }
}

function noSuchFile(): GatewayError {
  return new GatewayError('not_found', 'No such file');
}

/** `source` while it stays within `max` bytes; past that, the 413 naming `file`. */
async function* withinLimit(source: AsyncIterable<Uint8Array>, max: number): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const piece of source) {
    seen += piece.length;
    if (seen > max) {
      throw new GatewayError('payload_too_large', `file: larger than the ${max}-byte upload limit`, { metadata: { field: 'file' } });
    }
    yield piece;
  }
}
