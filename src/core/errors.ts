/**
 * Every error the API can answer, in one table: code → HTTP status → error_type.
 * Rendered in one place (http/error-envelope.ts).
 */

export const ERROR_CODES = {
  invalid_request: { status: 400, errorType: 'invalid_request' },
  provider_rejected: { status: 400, errorType: 'provider_error' },
  context_length_exceeded: { status: 400, errorType: 'context_length_exceeded' },
  authentication: { status: 401, errorType: 'authentication' },
  payment_required: { status: 402, errorType: 'payment_required' },
  not_found: { status: 404, errorType: 'not_found' },
  client_timeout: { status: 408, errorType: 'timeout' },
  /** The request itself did not arrive within the server's deadline (not a caller who left). */
  request_timeout: { status: 408, errorType: 'timeout' },
  /** The resource is in a state that refuses the change (a batch already ended cannot be cancelled). */
  conflict: { status: 409, errorType: 'conflict' },
  payload_too_large: { status: 413, errorType: 'payload_too_large' },
  headers_too_large: { status: 431, errorType: 'invalid_request' },
  unsupported_output: { status: 422, errorType: 'unsupported_output' },
  rate_limit_exceeded: { status: 429, errorType: 'rate_limit_exceeded' },
  provider_rate_limited: { status: 429, errorType: 'provider_overloaded' },
  server: { status: 500, errorType: 'server' },
  provider_unavailable: { status: 502, errorType: 'provider_unavailable' },
  provider_failed: { status: 502, errorType: 'provider_error' },
  no_route: { status: 503, errorType: 'no_route' },
  restarting: { status: 503, errorType: 'provider_overloaded' },
  server_unavailable: { status: 503, errorType: 'server' },
  upstream_timeout: { status: 504, errorType: 'timeout' },
} as const satisfies Record<string, { status: number; errorType: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly metadata: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { metadata?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'GatewayError';
    this.code = code;
    this.metadata = options.metadata ?? {};
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  get errorType(): string {
    return ERROR_CODES[this.code].errorType;
  }
}

export function invalidRequest(field: string, problem: string): GatewayError {
  return new GatewayError('invalid_request', `${field}: ${problem}`, { metadata: { field } });
}

export const AUTH_MESSAGE = 'Missing or invalid API key';

export function unauthenticated(): GatewayError {
  return new GatewayError('authentication', AUTH_MESSAGE);
}

export interface ErrorEnvelope {
  error: { code: number; message: string; metadata: Record<string, unknown> };
}

export function toEnvelope(error: GatewayError): ErrorEnvelope {
  return {
    error: {
      code: error.status,
      message: error.message,
      metadata: { error_type: error.errorType, ...error.metadata },
    },
  };
}

export const INTERNAL_ERROR_MESSAGE = 'Internal server error';
