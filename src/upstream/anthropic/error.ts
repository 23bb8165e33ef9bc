import type { UpstreamFailure } from '../../core/events.js';
import { ownEntry } from '../../core/own-entry.js';
import { isPlainObject, parseJson, stringOf, type JsonObject } from '../json-guards.js';
import { httpFailure } from '../http-failure.js';

/** The HTTP status each Anthropic error `type` stands for, read when an error arrives in a stream. */
const STATUS_BY_ERROR_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

type ReadError = Pick<UpstreamFailure, 'providerMessage' | 'providerCode' | 'status'>;

/** Reads the `error` object `{type, message}` of an Anthropic error body or `error` event. */
export function readAnthropicError(error: JsonObject): ReadError {
  const read: ReadError = {};
  const type = stringOf(error.type);
  const message = stringOf(error.message);
  if (message) read.providerMessage = message;
  if (type) {
    read.providerCode = type;
    const status = ownEntry(STATUS_BY_ERROR_TYPE, type);
    if (status !== undefined) read.status = status;
  }
  return read;
}

/** The `error` member of `{type: "error", error: {type, message}}`, when the text holds one. */
export function anthropicErrorObject(text: string): JsonObject | undefined {
  const body = parseJson(text);
  return isPlainObject(body) && isPlainObject(body.error) ? body.error : undefined;
}

/**
 * A failure from an HTTP error status and its Anthropic error body. Every status but 413 may
 * succeed elsewhere (529 `overloaded_error` included), so routing moves on.
 */
export function decodeAnthropicHttpError(status: number, bodyText: string, headers: Record<string, string>): UpstreamFailure {
  const error = anthropicErrorObject(bodyText);
  const read = error ? readAnthropicError(error) : {};
  return httpFailure(status, bodyText, headers, read);
}

/** An `error` event inside a stream: the status its type stands for, and its data as raw. */
export function decodeAnthropicStreamError(data: string, error: JsonObject): UpstreamFailure {
  return { kind: 'http', retryable: true, ...readAnthropicError(error), raw: data };
}
