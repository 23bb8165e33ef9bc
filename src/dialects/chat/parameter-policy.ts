/**
 * How each optional chat setting travels upstream.
 * - `declared`: forwarded under its own name; only endpoints declaring it are eligible (rule 2).
 * - `soft`: forwarded only where the endpoint declares it; never narrows routing on its own.
 * - `passthrough`: forwarded to every eligible endpoint (eligibility is decided by another rule).
 * Members absent from this table are consumed by the service or accepted and omitted upstream
 * (top_a, verbosity, include_reasoning, structured_outputs, usage, …).
 */
export const CHAT_PARAMETER_POLICY = {
  temperature: 'declared',
  top_p: 'declared',
  frequency_penalty: 'declared',
  presence_penalty: 'declared',
  seed: 'declared',
  stop: 'declared',
  logit_bias: 'declared',
  logprobs: 'declared',
  top_logprobs: 'declared',
  response_format: 'declared',
  parallel_tool_calls: 'declared',
  top_k: 'soft',
  min_p: 'soft',
  repetition_penalty: 'soft',
  enable_thinking: 'soft',
  modalities: 'passthrough',
  audio: 'passthrough',
  image_config: 'passthrough',
} as const satisfies Record<string, 'declared' | 'soft' | 'passthrough'>;

export type ChatParameterName = keyof typeof CHAT_PARAMETER_POLICY;
