import type { UpstreamFailure } from './events.js';
import { GatewayError, type ErrorCode } from './errors.js';
import type { AttemptFailure } from './plan.js';

export const RAW_LIMIT_BYTES = 4096;

/** Caps text at `limit` UTF-8 bytes without splitting a character. */
export function capUtf8(text: string, limit = RAW_LIMIT_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  let end = limit;
  // Step back over continuation bytes (10xxxxxx) so the cut falls on a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8');
}

/** The terminal error for a request whose every attempt failed; the last failure speaks. */
export function failuresToError(failures: AttemptFailure[]): GatewayError {
  const last = failures.at(-1);
  if (!last) return new GatewayError('provider_unavailable', 'No endpoint could serve the request');
  return failureToError(last.failure, last.attempt.endpoint.provider.name);
}

export function failureToError(failure: UpstreamFailure, providerName: string): GatewayError {
  const code = errorCodeFor(failure);
  const metadata: Record<string, unknown> = { provider_name: providerName };
  if (failure.status !== undefined) metadata.provider_status = failure.status;
  if (failure.providerMessage !== undefined) metadata.provider_message = failure.providerMessage;
  if (failure.providerCode !== undefined) metadata.provider_code = failure.providerCode;
  if (failure.raw !== undefined) metadata.raw = capUtf8(failure.raw);
  const headers: Record<string, string> = {};
  if (code === 'provider_rate_limited' && failure.retryAfter) headers['retry-after'] = failure.retryAfter;
  return new GatewayError(code, messageFor(code, providerName, failure), { metadata, headers });
}

/** The error code a failure is answered with (what the provider's status says of it). */
export function errorCodeFor(failure: UpstreamFailure): ErrorCode {
  if (failure.kind === 'timeout') return 'upstream_timeout';
  if (failure.kind === 'contract') return 'provider_failed';
  if (failure.kind !== 'http' || failure.status === undefined) return 'provider_unavailable';
  const status = failure.status;
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'provider_rate_limited';
  if (status === 408 || status === 504) return 'upstream_timeout';
  if (status === 401 || status === 403) return 'provider_unavailable';
  if (status >= 400 && status < 500) {
    return /context|too long|maximum.*tokens/i.test(failure.providerMessage ?? '') ? 'context_length_exceeded' : 'provider_rejected';
  }
  return 'provider_failed';
}

function messageFor(code: ErrorCode, providerName: string, failure: UpstreamFailure): string {
  switch (code) {
    case 'upstream_timeout':
      return `${providerName} did not answer in time`;
    case 'provider_rate_limited':
      return `${providerName} is rate limiting requests`;
    case 'provider_rejected':
    case 'context_length_exceeded':
    case 'payload_too_large':
      return `${providerName} rejected the request: ${failure.providerMessage ?? 'no reason given'}`;
    default:
      if (failure.kind === 'contract') return `tool_choice contract unmet: ${failure.providerMessage ?? 'no tool call'}`;
      if (failure.kind === 'incomplete') return failure.providerMessage ?? 'The stream closed before the answer finished';
      return `${providerName} failed: ${failure.providerMessage ?? 'no reason given'}`;
  }
}
