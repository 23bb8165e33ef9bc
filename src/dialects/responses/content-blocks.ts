import { invalidRequest } from '../../core/errors.js';
import type { ContentPart } from '../../core/request.js';
import { isPlainObject } from '../../core/plain-object.js';
import { noteFileField } from '../shared/file-fields.js';

export type Item = Record<string, unknown>;

export const isItem: (value: unknown) => value is Item = isPlainObject;

function requiredString(block: Item, member: string, field: string): string {
  const value = block[member];
  if (typeof value !== 'string') throw invalidRequest(`${field}.${member}`, 'must be a string');
  return value;
}

function optionalString(block: Item, member: string, field: string): string | undefined {
  const value = block[member];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`${field}.${member}`, 'must be a string');
  return value;
}

/**
 * One content block of the responses dialect as a core content part (rule 1): `input_text` /
 * `output_text` are text; `input_image` (`image_url`, or a stored `file_id`) and `input_file`
 * (`file_data`, `file_url` or `file_id`) are read by models that accept them. Anything else is
 * undefined: the caller decides whether that is an error or a block to name and drop.
 */
export function readContentBlock(block: unknown, field: string): ContentPart | undefined {
  if (!isItem(block)) throw invalidRequest(field, 'must be an object');
  switch (block.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: requiredString(block, 'text', field) };
    case 'input_image':
      return readImage(block, field);
    case 'input_file':
      return readFile(block, field);
    default:
      return undefined;
  }
}

function readImage(block: Item, field: string): ContentPart {
  const url = optionalString(block, 'image_url', field);
  const detail = optionalString(block, 'detail', field);
  if (url !== undefined && url !== '') return { type: 'image_url', image_url: detail ? { url, detail } : { url } };
  const fileId = optionalString(block, 'file_id', field);
  if (fileId !== undefined) return noteFileField({ type: 'file', file: { file_id: fileId } }, field);
  throw invalidRequest(`${field}.image_url`, 'is required (or a file_id)');
}

function readFile(block: Item, field: string): ContentPart {
  const file: { filename?: string; file_data?: string; file_id?: string } = {};
  const filename = optionalString(block, 'filename', field);
  const data = optionalString(block, 'file_data', field) ?? optionalString(block, 'file_url', field);
  const fileId = optionalString(block, 'file_id', field);
  if (filename !== undefined) file.filename = filename;
  if (data !== undefined) file.file_data = data;
  if (fileId !== undefined) file.file_id = fileId;
  if (data === undefined && fileId === undefined) throw invalidRequest(`${field}.file_data`, 'is required (or file_url, or file_id)');
  return noteFileField({ type: 'file', file }, field);
}

/** Text parts joined, for roles whose content is plain text (system). */
export function textOf(parts: readonly ContentPart[]): string {
  return parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
