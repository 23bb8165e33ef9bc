import type { UpstreamFailure } from '../../core/events.js';
import { isPlainObject, parseJson, stringOf, type JsonObject } from '../json-guards.js';
import { httpFailure } from '../http-failure.js';

/** Reads `{message, code, type}` of an OpenAI-style error object. */
export function readOpenAiError(error: JsonObject): Pick<UpstreamFailure, 'providerMessage' | 'providerCode' | 'status'> {
  const code = error.code;
  const read: Pick<UpstreamFailure, 'providerMessage' | 'providerCode' | 'status'> = {};
  const message = stringOf(error.message);
  if (message) read.providerMessage = message;
  if (typeof code === 'string') read.providerCode = code;
  if (typeof code === 'number') {
    read.providerCode = String(code);
    if (code >= 400 && code < 600) read.status = code;
  }
  return read;
}

/** A failure from an HTTP error status and the body that came with it. */
export function decodeOpenAiHttpError(status: number, bodyText: string, headers: Record<string, string>): UpstreamFailure {
  const body = parseJson(bodyText);
  const error = isPlainObject(body) && isPlainObject(body.error) ? body.error : isPlainObject(body) ? body : undefined;
  const read = error ? readOpenAiError(error) : {};
  return httpFailure(status, bodyText, headers, read);
}
