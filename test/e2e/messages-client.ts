import Anthropic from '@anthropic-ai/sdk';
import type { Harness } from './harness.js';

/**
 * The official Anthropic client pointed at the gateway. The client appends `/v1/messages` to its
 * base URL, so the base is the API root without its version segment.
 */
export function anthropicClient(harness: Harness, options: { apiKey?: string } = {}): Anthropic {
  return new Anthropic({ baseURL: `${harness.gateway.url}/api`, apiKey: options.apiKey ?? harness.key, maxRetries: 0 });
}

/** The body of the latest request the simulator received on `path`. */
export function lastUpstreamBody(harness: Harness, path = '/v1/chat/completions'): Record<string, unknown> {
  return lastUpstreamRequest(harness, path).body as Record<string, unknown>;
}

export function lastUpstreamRequest(harness: Harness, path = '/v1/chat/completions'): { headers: Record<string, string>; body: unknown } {
  const request = harness.sim.requests().filter((entry) => entry.path === path).at(-1);
  if (!request) throw new Error(`the simulator received no request on ${path}`);
  return request;
}

/** The shared error envelope's members inside the dialect envelope `{type: "error", error: {...}}`. */
export interface MessagesErrorBody {
  type: 'error';
  error: { type: string; message: string; code: number; metadata: { error_type: string; [member: string]: unknown } };
}
