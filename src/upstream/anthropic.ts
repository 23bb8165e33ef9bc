import type { UpstreamAdapter } from './types.js';
import { buildAnthropicRequest } from './anthropic-request.js';
import { AnthropicStreamDecoder } from './anthropic-stream.js';
import { decodeAnthropicReply } from './anthropic-reply.js';
import { decodeAnthropicHttpError } from './anthropic-error.js';

/** Upstreams speaking the Anthropic Messages API (`api: anthropic` providers). */
export const anthropicAdapter: UpstreamAdapter = {
  buildRequest: buildAnthropicRequest,
  createStreamDecoder: () => new AnthropicStreamDecoder(),
  decodeReply: decodeAnthropicReply,
  decodeError: decodeAnthropicHttpError,
};
