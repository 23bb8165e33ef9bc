/**
 * The one model shared by upstream adapters and dialect encoders.
 * Adapters turn a provider's wire into these events; encoders turn them into a dialect's reply.
 * Every block carries its reply position `index` and has a start, deltas and an end.
 */

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

export interface CoreUsage {
  /** Counts the endpoint reported; an unreported count is `undefined`, never 0. */
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
  /** Megapixels of generated pictures, read from their bytes (exact decimal string). */
  imageMegapixels?: string;
  /** Seconds of generated audio, read from its container (exact decimal string). */
  audioSeconds?: string;
}

export type ReasoningKind = 'text' | 'summary' | 'encrypted';

/** What a reasoning fragment may carry beside its text: the signature and the originating format. */
export interface ReasoningExtras {
  signature?: string;
  format?: string;
}

export interface UpstreamFailure {
  /** HTTP status the provider answered, when there was one. */
  status?: number;
  /** True when another endpoint might succeed where this one failed. */
  retryable: boolean;
  /** What kind of failure, from the gateway's point of view. */
  kind: 'http' | 'network' | 'timeout' | 'protocol' | 'incomplete' | 'contract';
  providerMessage?: string;
  providerCode?: string;
  /** Original body text or failing event data, as received. */
  raw?: string;
  retryAfter?: string;
}

/** One generated token's log-probability and its most likely alternatives, as the endpoint reported them. */
export interface TokenLogprob {
  token: string;
  logprob: number;
  /** The most likely tokens at this position, the generated one usually among them. */
  top: { token: string; logprob: number }[];
}

export type CoreEvent =
  | { type: 'meta'; upstreamId?: string; model?: string }
  | { type: 'text.start'; index: number }
  | { type: 'text.delta'; index: number; text: string }
  | { type: 'text.end'; index: number }
  | { type: 'reasoning.start'; index: number; kind: ReasoningKind }
  | { type: 'reasoning.delta'; index: number; kind: ReasoningKind; text: string; signature?: string; format?: string }
  | { type: 'reasoning.end'; index: number }
  | { type: 'refusal.delta'; index: number; text: string }
  | { type: 'tool.start'; index: number; toolIndex: number; id: string; name: string }
  | { type: 'tool.delta'; index: number; toolIndex: number; args: string }
  | { type: 'tool.end'; index: number; toolIndex: number }
  | { type: 'image'; index: number; url: string }
  | { type: 'tool.dispatch'; choiceIndex: number; toolIndex: number; id: string; name: string; arguments: string }
  | { type: 'audio.delta'; index: number; id?: string; data?: string; transcript?: string; expiresAt?: number }
  | { type: 'audio.end'; index: number }
  | { type: 'logprobs'; index: number; tokens: TokenLogprob[] }
  /** `stopSequence`: the caller's stop sequence that ended the answer, where the provider names it. */
  | { type: 'finish'; reason: FinishReason; raw: string | null; stopSequence?: string }
  | { type: 'usage'; usage: CoreUsage }
  | { type: 'error'; failure: UpstreamFailure };

export type CoreEventType = CoreEvent['type'];

/** Events that carry part of the answer: the first of them commits a stream. */
export function isContentEvent(event: CoreEvent): boolean {
  switch (event.type) {
    case 'text.delta':
    case 'reasoning.delta':
    case 'refusal.delta':
    case 'tool.start':
    case 'tool.delta':
    case 'image':
    case 'audio.delta':
    case 'tool.dispatch':
      return true;
    default:
      return false;
  }
}

export function assertNever(value: never): never {
  throw new Error(`unhandled variant: ${JSON.stringify(value)}`);
}
