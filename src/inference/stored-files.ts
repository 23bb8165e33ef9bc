import { GatewayError, invalidRequest } from '../core/errors.js';
import { MAX_STORED_FILES } from '../core/request-facts.js';
import type { ContentPart, CoreRequest } from '../core/request.js';

/** Spec 02 Limits: the stored files one inference request names, in all. */
export const MAX_STORED_FILE_BYTES = 32 * 1024 * 1024;

/** The account's stored files as a request reads them (the file store, through its seam). */
export interface StoredFiles {
  /** The file's record: 404 when the account cannot read it (another's, unknown, deleted, expired). */
  get(accountId: string, id: string): Promise<{ filename: string; contentType: string; bytes: number }>;
  /** Its bytes, opened chunk by chunk; 503 while the key store sealing them cannot be reached. */
  read(accountId: string, id: string): Promise<{ content: AsyncIterable<Buffer> }>;
}

type FilePart = Extract<ContentPart, { type: 'file' }>;

/**
 * Replaces every `file` part naming a stored file (`file_id`) with its bytes as a data URL, read
 * under the caller's account: the id is never forwarded (spec 01 rule 14). Refused before any
 * provider call or charge: a part naming both `file_id` and `file_data` (400), more than 16 stored
 * files (400), one the account cannot read (404), more than 32 MiB in all (413), the key store
 * unreachable (503).
 */
export async function readStoredFiles(files: StoredFiles | undefined, accountId: string, request: CoreRequest): Promise<void> {
  const named: Array<{ part: FilePart; field: string; id: string }> = [];
  request.messages.forEach((message, messageIndex) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, partIndex) => {
      if (part.type !== 'file' || part.file.file_id === undefined) return;
      const field = request.fileFields?.[`${messageIndex}.${partIndex}`] ?? `messages[${messageIndex}].content[${partIndex}].file`;
      if (part.file.file_data !== undefined) throw invalidRequest(field, 'names both file_id and file_data; send one');
      named.push({ part, field, id: part.file.file_id });
    });
  });
  if (named.length === 0) return;
  if (named.length > MAX_STORED_FILES) throw invalidRequest('messages', `names ${named.length} stored files; at most ${MAX_STORED_FILES}`);
  const records = await Promise.all(named.map(({ field, id }) => readable(files, accountId, id, field)));
  const total = records.reduce((sum, record) => sum + record.bytes, 0);
  if (total > MAX_STORED_FILE_BYTES) {
    throw new GatewayError('payload_too_large', `messages: the stored files named hold ${total} bytes; at most ${MAX_STORED_FILE_BYTES} in one request`);
  }
  for (const [index, { part, id }] of named.entries()) {
    const record = records[index];
    if (!files || !record) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of (await files.read(accountId, id)).content) chunks.push(chunk);
    part.file = { filename: part.file.filename ?? record.filename, file_data: `data:${record.contentType};base64,${Buffer.concat(chunks).toString('base64')}` };
  }
}

async function readable(files: StoredFiles | undefined, accountId: string, id: string, field: string): Promise<{ filename: string; contentType: string; bytes: number }> {
  const unreadable = () => new GatewayError('not_found', `${field}.file_id: no stored file ${id} readable by this account`);
  if (!files) throw unreadable();
  try {
    return await files.get(accountId, id);
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'not_found') throw unreadable();
    throw error;
  }
}
