import type { ServerResponse } from 'node:http';
import { sendJson } from './json-reply.js';
import { namedSseFrame } from './sse-frame.js';

/** Anthropic's error `type` for the statuses a provider answers. */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
}

export function anthropicErrorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function anthropicErrorBody(status: number, message: string): AnthropicErrorBody {
  return { type: 'error', error: { type: anthropicErrorType(status), message } };
}

export function sendAnthropicError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, anthropicErrorBody(status, message), headers);
}

/** The in-band `error` event a stream ends with when it fails after opening. */
export const MID_STREAM_ERROR_EVENT = namedSseFrame('error', anthropicErrorBody(500, 'simulated mid-stream failure'));
