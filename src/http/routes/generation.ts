import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { GatewayError } from '../../core/errors.js';
import { isGenerationId } from '../../core/generation-id.js';
import { formatUsd, toUsdNumber } from '../../billing/money.js';
import type { GenerationRecord } from '../../billing/types.js';
import type { Services } from '../services.js';
import { authenticatedKey } from '../auth.js';
import { GenerationRecordSchema } from '../../billing/generation-record-schema.js';
import { TAGS } from '../openapi/tags.js';
import { dataReply } from '../openapi/route-answers.js';

const GenerationQuery = Type.Object({ id: Type.String({ minLength: 1 }) });

/** `GET /generation?id=` — the recorded generation and its exact cost, for the owning account. */
export function registerGenerationRoute(app: FastifyInstance, services: Services): void {
  app.get('/generation', {
    schema: {
      operationId: 'getGeneration',
      summary: 'Read a generation record by id',
      tags: [TAGS.generations],
      querystring: GenerationQuery,
      answers: { success: { 200: dataReply(GenerationRecordSchema, 'The generation and its exact cost') }, errors: [400, 404] },
    },
  }, async (request) => {
    const { id } = request.query as Static<typeof GenerationQuery>;
    const record = isGenerationId(id) ? await services.generations.get(id, authenticatedKey(request).accountId) : null;
    if (!record) throw new GatewayError('not_found', `No generation ${id}`);
    return { data: renderGeneration(record) };
  });
}

/**
 * The public form of a generation record; unreported counts are null, never 0. The cost lines price
 * the usage as reported; `uncollected_usd` is what they add up to beyond the charge (null when all
 * of it was charged), `uncollected_reason` why.
 */
export function renderGeneration(record: GenerationRecord): Record<string, unknown> {
  return {
    id: record.id,
    model: record.model,
    provider_name: record.providerName,
    provider_slug: record.providerSlug,
    endpoint_id: record.endpointId,
    upstream_id: record.upstreamId,
    status: record.status,
    streamed: record.streamed,
    finish_reason: record.finishReason,
    native_finish_reason: record.nativeFinishReason,
    error: record.errorCode === null ? null : { code: record.errorCode, message: record.errorMessage },
    tokens_prompt: record.promptTokens ?? null,
    tokens_completion: record.completionTokens ?? null,
    tokens_cached: record.cachedTokens ?? null,
    tokens_cache_write: record.cacheWriteTokens ?? null,
    tokens_reasoning: record.reasoningTokens ?? null,
    estimated_prompt_tokens: record.estimatedPromptTokens,
    total_cost: toUsdNumber(record.cost),
    cost_usd: formatUsd(record.cost),
    cost_lines: record.costLines.map((line) => ({
      key: line.key,
      quantity: line.quantity,
      amount_usd: line.amount === null ? null : formatUsd(line.amount),
    })),
    uncollected_usd: record.uncollected ? formatUsd(record.uncollected.amount) : null,
    uncollected_reason: record.uncollected ? record.uncollected.reasons.join(',') : null,
    created_at: record.createdAt.toISOString(),
    latency_ms: record.latencyMs,
    generation_time_ms: record.generationMs,
    app_title: record.appTitle,
    app_referer: record.appReferer,
    metadata: record.metadata,
    ...sdkMembers(record),
  };
}

/**
 * The members `@openrouter/sdk`'s `generations.getGeneration` requires beyond the above: what the
 * record knows under the SDK's names, and null (or false, or 0) where the gateway has no such thing
 * (see the README: no BYOK, presets, moderation, web search or media counts are recorded).
 */
function sdkMembers(record: GenerationRecord): Record<string, unknown> {
  return {
    usage: toUsdNumber(record.cost),
    cancelled: record.status === 'cancelled',
    latency: record.latencyMs,
    generation_time: record.generationMs,
    native_tokens_prompt: record.promptTokens ?? null,
    native_tokens_completion: record.completionTokens ?? null,
    native_tokens_cached: record.cachedTokens ?? null,
    native_tokens_reasoning: record.reasoningTokens ?? null,
    native_tokens_completion_images: null,
    workspace_id: record.workspaceId,
    http_referer: record.appReferer,
    origin: record.appReferer ?? '',
    data_region: 'global',
    is_byok: false,
    upstream_inference_cost: null,
    api_type: null,
    app_id: null,
    cache_discount: null,
    external_user: null,
    moderation_latency: null,
    num_fetches: null,
    num_input_audio_prompt: null,
    num_media_completion: null,
    num_media_prompt: null,
    num_search_results: null,
    preset_id: null,
    provider_responses: null,
    router: null,
    service_tier: null,
    user_agent: null,
    web_search_engine: null,
  };
}
