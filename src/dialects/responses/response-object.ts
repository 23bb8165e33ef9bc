import type { CoreUsage, FinishReason } from '../../core/events.js';
import type { ReplyMeta } from '../shared/reply-meta.js';

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export interface ResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** Members sent as 0 that nothing measured; absent when every count was reported. */
  service?: { unreported: string[] };
}

/** The ids of one reply, derived from its generation id so either leads to the other. */
export interface ResponseIds {
  response: string;
  /** The id of the output item at a position. */
  item(prefix: 'msg' | 'fc', outputIndex: number): string;
}

export function responseIds(generationId: string): ResponseIds {
  const base = generationId.replace(/^gen-/, '');
  return {
    response: `resp_${base}`,
    item: (prefix, outputIndex) => `${prefix}_${base}_${outputIndex}`,
  };
}

/** `incomplete` when the output ceiling ended the reply; otherwise `completed`. */
export function statusOf(finish: FinishReason | undefined): 'completed' | 'incomplete' {
  return finish === 'length' ? 'incomplete' : 'completed';
}

/**
 * Both counts and their sum, always present; a count nothing measured is 0 and named in
 * `service.unreported` (`total_tokens` too whenever one of its terms is missing).
 */
export function encodeResponsesUsage(usage: CoreUsage | undefined): ResponsesUsage {
  const input = usage?.promptTokens;
  const output = usage?.completionTokens;
  const encoded: ResponsesUsage = { input_tokens: input ?? 0, output_tokens: output ?? 0, total_tokens: (input ?? 0) + (output ?? 0) };
  const unreported: string[] = [];
  if (input === undefined) unreported.push('input_tokens');
  if (output === undefined) unreported.push('output_tokens');
  if (unreported.length > 0) encoded.service = { unreported: [...unreported, 'total_tokens'] };
  return encoded;
}

export interface ResponseState {
  status: ResponseStatus;
  output: unknown[];
  usage: ResponsesUsage | null;
  error?: { code: string; message: string };
}

/**
 * The `response` object. The request-echo members are compatibility placeholders, not a record of
 * the request; the body names no provider and no cost (cost is read by generation id).
 */
export function responseObject(meta: ReplyMeta, state: ResponseState): Record<string, unknown> {
  return {
    id: responseIds(meta.id).response,
    object: 'response',
    created_at: meta.created,
    status: state.status,
    error: state.error ?? null,
    incomplete_details: state.status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: null,
    max_output_tokens: null,
    model: meta.model,
    output: state.output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: null,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    usage: state.usage,
    metadata: {},
  };
}
