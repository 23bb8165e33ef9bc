import { randomHex } from '../core/random-hex.js';

/**
 * A fresh stored-file id: `file-`, the creation time in base 36, then 24 random hex. Ids minted later
 * sort later, so an account's files are listed newest first by id alone, and a page's last id is
 * the cursor to the next.
 */
export function newFileId(now = Date.now()): string {
  return `file-${now.toString(36)}${randomHex(12)}`;
}

const FILE_ID = /^file-[0-9a-z]{16,64}$/;

/** Whether `id` has the shape newFileId gives: any other names no file. */
export function isFileId(id: string): boolean {
  return FILE_ID.test(id);
}
