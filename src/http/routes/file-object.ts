import { Type } from '@sinclair/typebox';
import { FILE_PURPOSES, UPLOAD_PURPOSES } from '../../files/file-purpose.js';
import type { FilePage } from '../../files/file-service.js';
import type { StoredFile } from '../../files/file-rows.js';

/**
 * The shape member the marketplace's client (`@openrouter/sdk`) reads to tell the file API's
 * record shapes apart: these are OpenAI's.
 */
const SHAPE = Type.Literal('openai', { description: 'The record\'s shape, OpenAI\'s, as the marketplace\'s client reads it' });

const Purpose = Type.Union(FILE_PURPOSES.map((purpose) => Type.Literal(purpose)), {
  description: `Stated at upload (${UPLOAD_PURPOSES.join(', ')}); \`batch_output\` for a batch's results`,
});

/** A stored file as OpenAI's Files API shapes it. */
export const FileObjectSchema = Type.Object({
  id: Type.String({ description: '`file-` followed by the creation time and random characters' }),
  object: Type.Literal('file'),
  bytes: Type.Integer({ minimum: 0, description: 'Size of the stored bytes' }),
  created_at: Type.Integer({ description: 'Unix seconds: when it was stored' }),
  expires_at: Type.Integer({ description: 'Unix seconds: 48 hours after storage; from then on it answers 404, as if deleted' }),
  filename: Type.String(),
  purpose: Purpose,
  status: Type.Literal('processed', { description: 'Always `processed`: a file is listed only once all of it is stored' }),
  status_details: Type.Null(),
  _shape: SHAPE,
});

export const FileListSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(FileObjectSchema),
  has_more: Type.Boolean({ description: 'Whether more files follow: pass `last_id` as `after` to read them' }),
  first_id: Type.Union([Type.String(), Type.Null()]),
  last_id: Type.Union([Type.String(), Type.Null()]),
  _shape: SHAPE,
});

export const FileDeletedSchema = Type.Object({
  id: Type.String(),
  object: Type.Literal('file'),
  deleted: Type.Literal(true),
  _shape: SHAPE,
});

export const FileIdParamsSchema = Type.Object({
  id: Type.String({ description: 'The file\'s id; another account\'s, an unknown, malformed, deleted or expired one is one 404' }),
});

/** The wire record of `file`. */
export function fileObject(file: StoredFile) {
  return {
    id: file.id,
    object: 'file' as const,
    bytes: file.bytes,
    created_at: Math.floor(file.createdAt / 1000),
    expires_at: Math.floor(file.expiresAt / 1000),
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed' as const,
    status_details: null,
    _shape: 'openai' as const,
  };
}

/** The wire page of `page`. */
export function fileList(page: FilePage) {
  return {
    object: 'list' as const,
    data: page.files.map(fileObject),
    has_more: page.hasMore,
    first_id: page.files[0]?.id ?? null,
    last_id: page.files.at(-1)?.id ?? null,
    _shape: 'openai' as const,
  };
}
