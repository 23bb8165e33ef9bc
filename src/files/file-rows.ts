import type { Selectable } from 'kysely';
import type { StoredFilesTable } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { FilePurpose } from './file-purpose.js';

/** An account's stored file: its name for a complete sealed blob. */
export interface StoredFile {
  id: string;
  accountId: string;
  /** The blob holding its sealed bytes. */
  blobId: string;
  filename: string;
  purpose: FilePurpose;
  /** The media type its bytes are served with. */
  contentType: string;
  bytes: number;
  createdAt: number;
  expiresAt: number;
}

export interface FileListQuery {
  /** The id of the last file of the previous page. */
  after?: string;
  limit: number;
  /** `desc`: newest first (the default); `asc`: oldest first. */
  order: 'asc' | 'desc';
  purpose?: FilePurpose;
}

/** Records a file; from this moment it is listed and read. */
export async function insertFile(store: Store, file: StoredFile): Promise<void> {
  await store.write((tx) => tx.insertInto('stored_files').values({
    id: file.id,
    account_id: file.accountId,
    blob_id: file.blobId,
    filename: file.filename,
    purpose: file.purpose,
    content_type: file.contentType,
    bytes: file.bytes,
    created_at: file.createdAt,
    expires_at: file.expiresAt,
  }).execute());
}

/** The account's file `id` while it has not expired at `now`, else null. */
export async function findFile(store: Store, accountId: string, id: string, now: number): Promise<StoredFile | null> {
  const row = await store.db.selectFrom('stored_files').selectAll()
    .where('id', '=', id).where('account_id', '=', accountId).where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? storedFile(row) : null;
}

/** Up to `query.limit` of the account's unexpired files in id order (creation order), after the cursor. */
export async function listFiles(store: Store, accountId: string, query: FileListQuery, now: number): Promise<StoredFile[]> {
  let select = store.db.selectFrom('stored_files').selectAll()
    .where('account_id', '=', accountId).where('expires_at', '>', now);
  if (query.purpose !== undefined) select = select.where('purpose', '=', query.purpose);
  if (query.after !== undefined) select = select.where('id', query.order === 'desc' ? '<' : '>', query.after);
  const rows = await select.orderBy('id', query.order).limit(query.limit).execute();
  return rows.map(storedFile);
}

/** Deletes the account's unexpired file `id` and answers what it was, or null when there was none. */
export async function deleteFile(store: Store, accountId: string, id: string, now: number): Promise<StoredFile | null> {
  return store.write(async (tx) => {
    const row = await tx.selectFrom('stored_files').selectAll()
      .where('id', '=', id).where('account_id', '=', accountId).where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    await tx.deleteFrom('stored_files').where('id', '=', id).execute();
    return storedFile(row);
  });
}

/** Deletes up to `limit` files expired at `now`; returns how many. */
export async function deleteExpiredFiles(store: Store, now: number, limit: number): Promise<number> {
  return store.write(async (tx) => {
    const due = tx.selectFrom('stored_files').select('id').where('expires_at', '<=', now).limit(limit);
    const result = await tx.deleteFrom('stored_files').where('id', 'in', due).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}

function storedFile(row: Selectable<StoredFilesTable>): StoredFile {
  return {
    id: row.id,
    accountId: row.account_id,
    blobId: row.blob_id,
    filename: row.filename,
    // written only by insertFile, from a FilePurpose
    purpose: row.purpose as FilePurpose,
    contentType: row.content_type,
    bytes: row.bytes,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}
