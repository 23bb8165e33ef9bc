import { invalidRequest } from '../../core/errors.js';
import type { RerankDocumentBody, RerankDocumentObject } from './schema.js';

const MEMBERS = ['text', 'title', 'id', 'metadata'];

/** Checks one submitted document: a string, or an object with only the documented members. */
export function readDocument(document: string | Record<string, unknown>, index: number): RerankDocumentBody {
  if (typeof document === 'string') return document;
  const field = `documents[${index}]`;
  const unknown = Object.keys(document).find((member) => !MEMBERS.includes(member));
  if (unknown !== undefined) throw invalidRequest(`${field}.${unknown}`, 'unknown member; a document object has text, title, id and metadata');
  if (typeof document.text !== 'string') throw invalidRequest(`${field}.text`, 'is required and must be a string');
  for (const member of ['title', 'id'] as const) {
    const value = document[member];
    if (value !== undefined && value !== null && typeof value !== 'string') throw invalidRequest(`${field}.${member}`, 'must be a string');
  }
  const metadata = document.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) {
    throw invalidRequest(`${field}.metadata`, 'must be an object');
  }
  return document as unknown as RerankDocumentObject;
}

/** What is scored for one document: a string as it is; an object's text, after its title when it has one. */
export function scoredText(document: RerankDocumentBody): string {
  if (typeof document === 'string') return document;
  return document.title ? `${document.title}\n${document.text}` : document.text;
}
