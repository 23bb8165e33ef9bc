import { toEnvelope, type ErrorCode, type GatewayError } from '../../core/errors.js';
import { isWindowReason } from '../../core/planner/window.js';

/** The Anthropic API's error types, by the shared envelope's `error_type`. */
const ERROR_TYPES: Record<string, string> = {
  invalid_request: 'invalid_request_error',
  context_length_exceeded: 'invalid_request_error',
  unsupported_output: 'invalid_request_error',
  authentication: 'authentication_error',
  payment_required: 'billing_error',
  not_found: 'not_found_error',
  payload_too_large: 'request_too_large',
  rate_limit_exceeded: 'rate_limit_error',
  timeout: 'timeout_error',
};

/**
 * The overload class: a provider rate limiting, the instance restarting (before or during an
 * answer), the service briefly unable to finish — all worth repeating shortly.
 */
const OVERLOAD_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['provider_rate_limited', 'restarting', 'server_unavailable']);

/** A provider status that means "overloaded" whatever the shared envelope calls it (Anthropic's 529). */
const OVERLOADED_PROVIDER_STATUS = 529;

/**
 * This dialect's error type: the overload class (and a provider answering 529) is
 * `overloaded_error`; the rest follow the table, else `invalid_request_error` for 4xx and
 * `api_error` for 5xx.
 */
export function messagesErrorType(error: GatewayError): string {
  if (OVERLOAD_CODES.has(error.code) || error.metadata.provider_status === OVERLOADED_PROVIDER_STATUS) return 'overloaded_error';
  return ERROR_TYPES[error.errorType] ?? (error.status < 500 ? 'invalid_request_error' : 'api_error');
}

export interface MessagesErrorBody {
  type: 'error';
  error: { type: string; message: string; code: number; metadata: Record<string, unknown> };
}

/**
 * The dialect's error envelope, after the Anthropic API's `{type: "error", error: {type, message}}`,
 * carrying the shared envelope's `code` and `metadata` (with `error_type` and any provider
 * diagnostics) inside `error`. It answers every error of the messages routes, streamed or not, and
 * is the data of a stream's `error` event after it opened.
 */
export function messagesErrorBody(error: GatewayError): MessagesErrorBody {
  const { error: shared } = toEnvelope(error);
  const message = promptTooLong(error) ? `${PROMPT_TOO_LONG}: ${shared.message}` : shared.message;
  return { type: 'error', error: { type: messagesErrorType(error), message, code: shared.code, metadata: shared.metadata } };
}

/**
 * How the Anthropic API begins the message of a prompt longer than the context; its clients look
 * for it (Claude Code compacts the conversation and repeats the request).
 */
const PROMPT_TOO_LONG = 'prompt is too long';

/** A provider refusing the prompt as too long, or no endpoint whose window holds it. */
function promptTooLong(error: GatewayError): boolean {
  if (error.code === 'context_length_exceeded') return true;
  const rejections: unknown = error.metadata.rejections;
  if (error.code !== 'no_route' || !Array.isArray(rejections) || rejections.length === 0) return false;
  return (rejections as unknown[]).every((rejection) => typeof rejection === 'object' && rejection !== null && 'reason' in rejection
    && typeof rejection.reason === 'string' && isWindowReason(rejection.reason));
}
