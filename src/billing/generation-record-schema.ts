import { Type } from '@sinclair/typebox';
import { GENERATION_STATUSES } from './types.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const Count = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'As the endpoint reported it; null when unreported' });
const UsdDecimal = Type.String({ pattern: '^\\d+(\\.\\d+)?$', description: 'Exact decimal USD' });

/** The public form of a generation record, as `GET /generation` renders it inside `{data}`. */
export const GenerationRecordSchema = Type.Object({
  id: Type.String(),
  model: Type.String(),
  provider_name: NullableString,
  provider_slug: NullableString,
  endpoint_id: NullableString,
  upstream_id: NullableString,
  status: Type.Union(GENERATION_STATUSES.map((status) => Type.Literal(status)), { description: '`pending` until settled' }),
  streamed: Type.Boolean(),
  finish_reason: NullableString,
  native_finish_reason: NullableString,
  error: Type.Union([Type.Object({ code: Type.Integer(), message: NullableString }), Type.Null()]),
  tokens_prompt: Count,
  tokens_completion: Count,
  tokens_cached: Count,
  tokens_cache_write: Count,
  tokens_reasoning: Count,
  estimated_prompt_tokens: Type.Integer({ minimum: 0 }),
  total_cost: Type.Number({ minimum: 0, description: 'USD' }),
  cost_usd: UsdDecimal,
  cost_lines: Type.Array(Type.Object({
    key: Type.String({ description: 'Price key' }),
    quantity: Type.String({ description: 'Decimal quantity as reported' }),
    amount_usd: Type.Union([UsdDecimal, Type.Null()], { description: 'null when the unit has no declared price' }),
  })),
  uncollected_usd: Type.Union([UsdDecimal, Type.Null()], { description: 'What the cost lines add up to beyond the charge' }),
  uncollected_reason: NullableString,
  created_at: Type.String({ description: 'ISO 8601' }),
  latency_ms: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  generation_time_ms: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  app_title: NullableString,
  app_referer: NullableString,
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  // The members @openrouter/sdk's generations.getGeneration requires, under its names.
  usage: Type.Number({ minimum: 0, description: 'USD charged: the same as `total_cost`' }),
  cancelled: Type.Boolean({ description: 'True when the caller left before the answer ended' }),
  latency: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'ms: `latency_ms`' }),
  generation_time: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'ms: `generation_time_ms`' }),
  native_tokens_prompt: Count,
  native_tokens_completion: Count,
  native_tokens_cached: Count,
  native_tokens_reasoning: Count,
  native_tokens_completion_images: Type.Null({ description: 'Not recorded' }),
  workspace_id: Type.String(),
  http_referer: NullableString,
  origin: Type.String({ description: 'The HTTP-Referer the request named; empty when none' }),
  data_region: Type.Literal('global', { description: 'Requests are not bound to a data region' }),
  is_byok: Type.Literal(false, { description: 'No bring-your-own-key usage' }),
  upstream_inference_cost: Type.Null({ description: 'Only for bring-your-own-key usage, which the gateway does not serve' }),
  ...Object.fromEntries([
    'api_type', 'app_id', 'cache_discount', 'external_user', 'moderation_latency', 'num_fetches', 'num_input_audio_prompt', 'num_media_completion',
    'num_media_prompt', 'num_search_results', 'preset_id', 'provider_responses', 'router', 'service_tier', 'user_agent', 'web_search_engine',
  ].map((member) => [member, Type.Null({ description: 'Not recorded by this gateway' })])),
});
