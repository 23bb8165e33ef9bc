import { ERROR_CODES } from '../../src/core/errors.js';
import type { RawReply } from '../e2e/harness.js';

/** Every (status, error_type) pair the error table can answer. */
const KNOWN_PAIRS: ReadonlySet<string> = new Set(Object.values(ERROR_CODES).map(({ status, errorType }) => `${status} ${errorType}`));

type Shape = (body: unknown, status: number) => string | undefined;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `metadata.error_type` names a row of the error table for this status. */
function metadataProblem(metadata: unknown, status: number): string | undefined {
  if (!isObject(metadata)) return 'metadata is not an object';
  if (typeof metadata.error_type !== 'string') return 'metadata.error_type is not a string';
  if (!KNOWN_PAIRS.has(`${status} ${metadata.error_type}`)) return `error_type ${metadata.error_type} is not in the table for ${status}`;
  return undefined;
}

/** Spec 02: `{error:{code (the HTTP status), message, metadata:{error_type}}}`. */
const sharedEnvelope: Shape = (body, status) => {
  if (!isObject(body) || !isObject(body.error)) return 'not {error:{…}}';
  const { error } = body;
  if (error.code !== status) return `error.code ${String(error.code)} is not the status ${status}`;
  if (typeof error.message !== 'string' || error.message === '') return 'error.message is not a non-empty string';
  return metadataProblem(error.metadata, status);
};

/** The messages dialect: `{type:"error", error:{type, message, code, metadata}}` (dialects/messages/error-body.ts). */
const messagesEnvelope: Shape = (body, status) => {
  if (!isObject(body) || body.type !== 'error' || !isObject(body.error)) return 'not {type:"error", error:{…}}';
  const { error } = body;
  if (typeof error.type !== 'string' || !error.type.endsWith('_error') && error.type !== 'request_too_large') return `error.type ${String(error.type)} is not an Anthropic error type`;
  if (error.code !== status) return `error.code ${String(error.code)} is not the status ${status}`;
  if (typeof error.message !== 'string' || error.message === '') return 'error.message is not a non-empty string';
  return metadataProblem(error.metadata, status);
};

/** A streamed responses request refused before commit: `{error:{message, type, code:null, metadata}}` (spec 01 Errors). */
const responsesStreamRefusal: Shape = (body, status) => {
  if (!isObject(body) || !isObject(body.error)) return 'not {error:{…}}';
  const { error } = body;
  if (error.type !== 'invalid_request_error' || error.code !== null) return 'not the streamed refusal {type: invalid_request_error, code: null}';
  if (typeof error.message !== 'string' || error.message === '') return 'error.message is not a non-empty string';
  return metadataProblem(error.metadata, status);
};

/** What the gateway parsed the body as, or undefined when it could not (then no dialect rule applies). */
function sentStream(payload: string | undefined): boolean {
  if (payload === undefined) return false;
  try {
    // The gateway's JSON reader drops a leading byte order mark, as JSON.parse does not.
    const parsed: unknown = JSON.parse(payload.replace(/^\ufeff/, ''));
    return isObject(parsed) && parsed.stream === true;
  } catch {
    return false;
  }
}

/**
 * Why a non-2xx reply of `path` is not in the envelope its route answers with, or undefined when it
 * is. `/messages` routes always answer in their dialect; a streamed `/responses` request may be
 * refused in the shared envelope or in the streamed refusal body.
 */
export function envelopeProblem(path: string, reply: RawReply, payload: string | undefined): string | undefined {
  if (reply.json === undefined) return `body is not JSON: ${reply.text.slice(0, 200)}`;
  if (path.startsWith('/messages')) return messagesEnvelope(reply.json, reply.status);
  if (path === '/responses' && sentStream(payload)) {
    const shared = sharedEnvelope(reply.json, reply.status);
    return shared === undefined ? undefined : responsesStreamRefusal(reply.json, reply.status);
  }
  return sharedEnvelope(reply.json, reply.status);
}
