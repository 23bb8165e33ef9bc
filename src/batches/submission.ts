import { invalidRequest } from '../core/errors.js';
import { isPlainObject } from '../core/plain-object.js';
import type { DialectName } from '../inference/dialects.js';

/** The routes a batch can run, by the endpoint it names, and the dialect each body is admitted by. */
export const BATCH_ENDPOINTS = {
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'responses',
  '/v1/messages': 'messages',
} as const satisfies Record<string, DialectName>;

export type BatchEndpoint = keyof typeof BATCH_ENDPOINTS;

/** Spec 02 Limits: requests per batch, and the longest `custom_id`. */
export const BATCH_LIMITS = { requests: 1000, customIdChars: 128 } as const;

/** One request as submitted: the caller's id and the body for the chosen route. */
export interface SubmittedRequest {
  customId: string;
  body: Record<string, unknown>;
}

/** A submission whose envelope is sound; its bodies are still to be admitted one by one. */
export interface Submission {
  endpoint: BatchEndpoint;
  model: string | null;
  /** `provider` preferences for every body stating none. */
  provider: Record<string, unknown> | null;
  /** OpenAI's batch `metadata`, kept and reported as given. */
  metadata: Record<string, string> | null;
  /** The requests inline, or the uploaded JSONL file naming them (OpenAI's form). */
  source: { requests: SubmittedRequest[] } | { inputFileId: string };
}

const MEMBERS = new Set(['endpoint', 'requests', 'input_file_id', 'model', 'provider', 'completion_window', 'metadata']);

/**
 * Reads a `POST /batches` body, refusing (400 naming the field) an envelope that is not sound as a
 * whole: an unbatched endpoint, no requests or more than 1,000, a `custom_id` missing, too long,
 * unprintable or repeated, a body asking to stream or (chat) to be stored. The bodies themselves are
 * admitted later, each failing alone.
 */
export function readSubmission(body: unknown): Submission {
  if (!isPlainObject(body)) throw invalidRequest('body', 'must be a JSON object');
  for (const member of Object.keys(body)) {
    if (!MEMBERS.has(member)) throw invalidRequest(member, 'unknown member');
  }
  const endpoint = readEndpoint(body.endpoint);
  if (body.completion_window !== undefined && body.completion_window !== '24h') throw invalidRequest('completion_window', 'must be "24h"');
  const model = optionalString(body.model, 'model');
  const provider = body.provider === undefined ? null : body.provider;
  if (provider !== null && !isPlainObject(provider)) throw invalidRequest('provider', 'must be an object');
  return { endpoint, model, provider, metadata: readMetadata(body.metadata), source: readSource(body, endpoint) };
}

function readEndpoint(value: unknown): BatchEndpoint {
  if (value === undefined) throw invalidRequest('endpoint', 'is required');
  if (typeof value !== 'string' || !Object.hasOwn(BATCH_ENDPOINTS, value)) {
    throw invalidRequest('endpoint', `must be one of ${Object.keys(BATCH_ENDPOINTS).map((name) => JSON.stringify(name)).join(', ')}`);
  }
  return value as BatchEndpoint;
}

function readSource(body: Record<string, unknown>, endpoint: BatchEndpoint): Submission['source'] {
  if (body.input_file_id !== undefined) {
    if (body.requests !== undefined) throw invalidRequest('input_file_id', 'give either requests or input_file_id, not both');
    if (typeof body.input_file_id !== 'string' || body.input_file_id === '') throw invalidRequest('input_file_id', 'must be a file id');
    return { inputFileId: body.input_file_id };
  }
  if (body.requests === undefined) throw invalidRequest('requests', 'is required');
  if (!Array.isArray(body.requests)) throw invalidRequest('requests', 'must be an array');
  return { requests: checkedRequests(body.requests.map((item, index) => readRequest(item, `requests[${index}]`)), 'requests', endpoint) };
}

function readRequest(item: unknown, at: string): SubmittedRequest {
  if (!isPlainObject(item)) throw invalidRequest(at, 'must be an object with custom_id and body');
  for (const member of Object.keys(item)) {
    if (member !== 'custom_id' && member !== 'body') throw invalidRequest(`${at}.${member}`, 'unknown member');
  }
  if (typeof item.custom_id !== 'string') throw invalidRequest(`${at}.custom_id`, item.custom_id === undefined ? 'is required' : 'must be a string');
  if (!isPlainObject(item.body)) throw invalidRequest(`${at}.body`, item.body === undefined ? 'is required' : 'must be an object');
  return { customId: item.custom_id, body: item.body };
}

/**
 * The envelope rules every request list obeys, inline or read from a file (`at` names where the
 * list came from: `requests`, or the file's lines).
 */
export function checkedRequests(requests: SubmittedRequest[], at: string, endpoint: BatchEndpoint): SubmittedRequest[] {
  if (requests.length === 0) throw invalidRequest(at, 'must hold at least one request');
  if (requests.length > BATCH_LIMITS.requests) throw invalidRequest(at, `at most ${BATCH_LIMITS.requests} requests per batch`);
  const seen = new Set<string>();
  requests.forEach((request, index) => {
    const field = `${at}[${index}]`;
    const problem = customIdProblem(request.customId);
    if (problem) throw invalidRequest(`${field}.custom_id`, problem);
    if (seen.has(request.customId)) throw invalidRequest(`${field}.custom_id`, 'repeated');
    seen.add(request.customId);
    if (request.body.stream === true) throw invalidRequest(`${field}.body.stream`, 'not accepted in a batch: every request is answered in full');
    if (endpoint === '/v1/chat/completions' && request.body.store === true) throw invalidRequest(`${field}.body.store`, 'a batched chat request cannot be stored');
  });
  return requests;
}

function customIdProblem(customId: string): string | undefined {
  if (customId.length === 0) return 'must not be empty';
  if ([...customId].length > BATCH_LIMITS.customIdChars) return `at most ${BATCH_LIMITS.customIdChars} characters`;
  if (/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u.test(customId)) return 'printable characters only';
  return undefined;
}

function optionalString(value: unknown, field: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value === '') throw invalidRequest(field, 'must be a non-empty string');
  return value;
}

/** OpenAI's batch metadata: up to 16 string pairs. */
function readMetadata(value: unknown): Record<string, string> | null {
  if (value === undefined) return null;
  if (!isPlainObject(value)) throw invalidRequest('metadata', 'must be an object of strings');
  const entries = Object.entries(value);
  if (entries.length > 16) throw invalidRequest('metadata', 'at most 16 pairs');
  for (const [name, text] of entries) {
    if (typeof text !== 'string') throw invalidRequest(`metadata.${name}`, 'must be a string');
  }
  return value as Record<string, string>;
}
