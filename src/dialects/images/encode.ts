import type { ImagesAsk, ImagesResult } from '../../core/images.js';
import type { ReplyMeta } from '../shared/reply-meta.js';

/**
 * The reply of POST /images/generations in OpenAI's shape: one `data` item per picture, its bytes
 * (`b64_json`) or, where the endpoint gave only a URL, that URL; `usage` with the counts the endpoint
 * reported (null where it reported none) and the exact `cost`.
 */
export function encodeImageGenerationsReply(result: ImagesResult, meta: ReplyMeta, ask: ImagesAsk, cost: number): Record<string, unknown> {
  const { usage } = result;
  const total = usage.inputTokens !== undefined && usage.outputTokens !== undefined ? usage.inputTokens + usage.outputTokens : null;
  return {
    created: meta.created,
    data: result.images.map((image) => ({
      ...(image.kind === 'data' ? { b64_json: image.base64 } : { url: image.url }),
      ...(image.revisedPrompt !== undefined && { revised_prompt: image.revisedPrompt }),
    })),
    ...(ask.outputFormat !== undefined && { output_format: ask.outputFormat }),
    ...(ask.size !== undefined && { size: ask.size }),
    ...(ask.quality !== undefined && { quality: ask.quality }),
    ...(ask.background !== undefined && { background: ask.background }),
    usage: {
      input_tokens: usage.inputTokens ?? null,
      output_tokens: usage.outputTokens ?? null,
      total_tokens: total,
      ...((usage.inputTextTokens !== undefined || usage.inputImageTokens !== undefined) && {
        input_tokens_details: { text_tokens: usage.inputTextTokens ?? null, image_tokens: usage.inputImageTokens ?? null },
      }),
      cost,
    },
  };
}

/**
 * The reply of POST /images in the hosted marketplace's shape: each picture's bytes with its media
 * type, and `usage` with the counts as its client reads them (`prompt_tokens`, `completion_tokens`,
 * `total_tokens`: 0 where the endpoint reported none, as the hosted marketplace answers) and the
 * exact `cost`. A picture given only as a URL cannot be answered here (see the binding's refusal).
 */
export function encodeImagesReply(result: ImagesResult, meta: ReplyMeta, _ask: ImagesAsk, cost: number): Record<string, unknown> {
  const prompt = result.usage.inputTokens ?? 0;
  const completion = result.usage.outputTokens ?? 0;
  return {
    created: meta.created,
    data: result.images.flatMap((image) => (image.kind === 'data' ? [{ b64_json: image.base64, media_type: image.mediaType }] : [])),
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      ...(result.usage.outputTokens !== undefined && { completion_tokens_details: { image_tokens: result.usage.outputTokens } }),
      cost,
    },
  };
}
