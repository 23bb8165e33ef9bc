import type { UpstreamFailure } from '../core/events.js';

/**
 * The failure an HTTP error status stands for, whatever the wire: every status but 413 may succeed
 * elsewhere, so routing moves on; the provider's message and code as the wire's error body gave them
 * (else the start of the body), the body as raw, and a provider-sent `Retry-After`.
 */
export function httpFailure(
  status: number,
  bodyText: string,
  headers: Record<string, string>,
  read: { providerMessage?: string; providerCode?: string },
): UpstreamFailure {
  const failure: UpstreamFailure = {
    kind: 'http',
    status,
    retryable: status !== 413,
    providerMessage: read.providerMessage ?? (bodyText.slice(0, 200) || `HTTP ${status}`),
    raw: bodyText,
  };
  if (read.providerCode) failure.providerCode = read.providerCode;
  const retryAfter = headers['retry-after'];
  if (retryAfter) failure.retryAfter = retryAfter;
  return failure;
}
