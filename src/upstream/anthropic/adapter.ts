import type { UpstreamAdapter } from '../types.js';
import { buildAnthropicRequest } from './request.js';
import { AnthropicStreamDecoder } from './stream.js';
import { decodeAnthropicReply } from './reply.js';
import { decodeAnthropicHttpError } from './error.js';

/** Chat members with no counterpart on the Messages wire: accepted where declared, never sent. */
export const ANTHROPIC_UNCARRIED_MEMBERS: ReadonlySet<string> = new Set([
  'seed', 'frequency_penalty', 'presence_penalty', 'logit_bias', 'logprobs', 'top_logprobs',
  'min_p', 'repetition_penalty', 'enable_thinking',
]);

/** Members this wire sends whether or not the endpoint declares them: they ride on another member. */
export const ANTHROPIC_INHERENT_MEMBERS: ReadonlySet<string> = new Set(['parallel_tool_calls']);

/** Upstreams speaking the Anthropic Messages API (`api: anthropic` providers). */
export const anthropicAdapter: UpstreamAdapter = {
  buildRequest: buildAnthropicRequest,
  createStreamDecoder: () => new AnthropicStreamDecoder(),
  decodeReply: decodeAnthropicReply,
  decodeError: decodeAnthropicHttpError,
  carries: (member) => !ANTHROPIC_UNCARRIED_MEMBERS.has(member),
  carriesUndeclared: (member) => ANTHROPIC_INHERENT_MEMBERS.has(member),
};
