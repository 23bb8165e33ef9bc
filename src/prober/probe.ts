import type { EndpointEntry } from '../catalogue/types.js';
import type { Capability } from '../core/capability-checks.js';
import type { UpstreamFailure } from '../core/events.js';

/** What a probe got back from the pipeline: a whole chat reply, a chat stream's text, or a failure. */
export type ProbeReply =
  | { kind: 'answer'; body: unknown }
  | { kind: 'stream'; text: string }
  | { kind: 'failed'; status: number; message: string; failures: readonly UpstreamFailure[] };

/** A check's verdict on what came back; `inconclusive` when the reply says nothing of the capability. */
export type Judgement = { passed: boolean; detail: string } | { inconclusive: string };

/** One request verifying one capability of one endpoint, and how its reply is judged. */
export interface Probe {
  capability: Capability;
  /** A chat request body without `model` and `provider`: the runner pins it to the endpoint. */
  body: Record<string, unknown>;
  judge(reply: ProbeReply): Judgement;
}

/** One row of the check table: which endpoints it applies to, from their declarations, and the probes. */
export interface CapabilityCheck {
  /** What it verifies, as the README names it. */
  name: string;
  /** The probes for this endpoint; none when it declares nothing this check verifies. */
  probes(endpoint: EndpointEntry): Probe[];
}

/** The endpoint answers conversations (not only embeddings, rerank or speech). */
export function answersChat(endpoint: EndpointEntry): boolean {
  return endpoint.outputModalities.includes('text');
}

/** Kinds of HTTP status that say the provider refused this request, not that it could not answer now. */
const NOT_A_REFUSAL = new Set([401, 403, 408, 409, 429]);

/**
 * The failure of a probe that refutes the promise: the endpoint answered without the tool call a
 * forced `tool_choice` required, or refused the request itself (a 4xx other than credentials,
 * timeouts and rate limits). Anything else (an outage, a timeout, no route) says nothing of the
 * capability, and no verdict is recorded.
 */
export function refusalOf(reply: Extract<ProbeReply, { kind: 'failed' }>): string | undefined {
  const last = reply.failures.at(-1);
  if (!last) return undefined;
  if (last.kind === 'contract') return last.providerMessage ?? 'answered without the required tool call';
  const status = last.status;
  if (last.kind !== 'http' || status === undefined || status < 400 || status >= 500 || NOT_A_REFUSAL.has(status)) return undefined;
  return `the provider refused it (${status}: ${last.providerMessage ?? 'no reason given'})`;
}

/** A failed probe judged: refuted where the provider refused it, else inconclusive. */
export function judgeFailure(reply: Extract<ProbeReply, { kind: 'failed' }>): Judgement {
  const refusal = refusalOf(reply);
  return refusal === undefined ? { inconclusive: `${reply.status}: ${reply.message}` } : { passed: false, detail: refusal };
}
