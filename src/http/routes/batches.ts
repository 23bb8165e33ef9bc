import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { BATCH_STATUSES, type BatchStatus } from '../../batches/batch-rows.js';
import { SUBMISSION_LIMIT_BYTES } from '../../batches/input-file.js';
import { readSubmission } from '../../batches/submission.js';
import { invalidRequest } from '../../core/errors.js';
import { authenticatedKey } from '../auth.js';
import { jsonReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';
import { queryInteger, queryString, refuseUnknownParameters, type RawQuery } from '../query-parameters.js';
import type { Services } from '../services.js';

export const BATCH_PAGE = { min: 1, max: 100, fallback: 20 } as const;

const Seconds = Type.Union([Type.Integer(), Type.Null()]);

const ResultLineSchema = Type.Object({
  id: Type.String({ description: '`breq_…`' }),
  custom_id: Type.String(),
  response: Type.Union([Type.Object({ status_code: Type.Integer(), request_id: Type.String({ description: 'The generation the request was billed under' }), body: Type.Unknown() }), Type.Null()]),
  error: Type.Union([Type.Object({
    type: Type.String(),
    message: Type.String(),
    param: Type.Union([Type.String(), Type.Null()]),
    code: Type.Union([Type.Integer(), Type.Null()]),
    request_id: Type.Union([Type.String(), Type.Null()]),
  }), Type.Null()]),
});

const BatchSchema = Type.Object({
  id: Type.String({ description: '`batch_` and 32 hex characters' }),
  object: Type.Literal('batch'),
  endpoint: Type.String(),
  model: Type.Union([Type.String(), Type.Null()]),
  completion_window: Type.Literal('24h'),
  status: Type.Union(BATCH_STATUSES.map((status) => Type.Literal(status))),
  created_at: Type.Integer(),
  expires_at: Type.Integer(),
  finalized_at: Seconds,
  request_counts: Type.Object({ total: Type.Integer(), completed: Type.Integer(), failed: Type.Integer() }),
  results_file_id: Type.Union([Type.String(), Type.Null()]),
  results: Type.Union([Type.Array(ResultLineSchema), Type.Null()], { description: 'The result lines while the results file exists; always null in a list' }),
  error: Type.Union([Type.Object({ message: Type.String() }), Type.Null()]),
  input_file_id: Type.Union([Type.String(), Type.Null()]),
  output_file_id: Type.Union([Type.String(), Type.Null()], { description: 'OpenAI\'s name for the results file' }),
  error_file_id: Type.Null(),
  errors: Type.Null(),
  in_progress_at: Seconds,
  cancelling_at: Seconds,
  completed_at: Seconds,
  failed_at: Seconds,
  expired_at: Seconds,
  cancelled_at: Seconds,
  metadata: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
});

const BatchListSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(BatchSchema),
  first_id: Type.Union([Type.String(), Type.Null()]),
  last_id: Type.Union([Type.String(), Type.Null()]),
  has_more: Type.Boolean(),
});

const BatchRequestSchema = Type.Object({
  endpoint: Type.Union(['/v1/chat/completions', '/v1/responses', '/v1/messages'].map((endpoint) => Type.Literal(endpoint))),
  requests: Type.Optional(Type.Array(Type.Object({ custom_id: Type.String({ maxLength: 128 }), body: Type.Object({}, { additionalProperties: true }) }), { minItems: 1, maxItems: 1000 })),
  input_file_id: Type.Optional(Type.String({ description: 'An uploaded JSONL file in OpenAI\'s batch input format, instead of `requests`' })),
  model: Type.Optional(Type.String()),
  provider: Type.Optional(Type.Object({}, { additionalProperties: true })),
  completion_window: Type.Optional(Type.Literal('24h')),
  metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
});

const BatchListQuerySchema = Type.Object({
  status: Type.Optional(Type.Array(Type.String(), { description: 'Repeatable' })),
  created_after: Type.Optional(Type.String({ description: 'Unix seconds, a date or an ISO 8601 instant; exclusive' })),
  created_before: Type.Optional(Type.String({ description: 'Unix seconds, a date or an ISO 8601 instant; exclusive' })),
  limit: Type.Optional(Type.Integer({ minimum: BATCH_PAGE.min, maximum: BATCH_PAGE.max })),
  after: Type.Optional(Type.String({ description: 'The `last_id` of the previous page' })),
});

/** Bodies the framework reads as they are: each is admitted by its own route's dialect. */
const READ_AS_IS = () => () => true;

/** POST /batches, GET /batches, GET /batches/{id}, POST /batches/{id}/cancel (an inference key). */
export function registerBatchRoutes(app: FastifyInstance, services: Services): void {
  app.post('/batches', {
    bodyLimit: SUBMISSION_LIMIT_BYTES,
    validatorCompiler: READ_AS_IS,
    schema: {
      operationId: 'createBatch',
      summary: 'Submit requests to run in the background',
      tags: [TAGS.batches],
      body: BatchRequestSchema,
      answers: { success: { 202: jsonReply(BatchSchema, 'The batch, `validating`: nothing run or charged yet') }, errors: [400, 404, 413, 429, 503] },
    },
  }, async (request, reply) => {
    const submission = readSubmission(request.body);
    const batch = await services.batches.submit(authenticatedKey(request), submission, request.headers);
    return reply.code(202).send(batch);
  });

  app.get('/batches', {
    schema: {
      operationId: 'listBatches',
      summary: 'The account\'s batches, newest first',
      tags: [TAGS.batches],
      answers: { success: { 200: jsonReply(BatchListSchema, 'One page of batches (`results` always null)') }, errors: [400], query: BatchListQuerySchema },
    },
  }, async (request) => {
    const raw = request.query as RawQuery;
    refuseUnknownParameters(raw, ['status', 'created_after', 'created_before', 'limit', 'after']);
    const limit = queryInteger(raw, 'limit', BATCH_PAGE);
    const after = queryString(raw, 'after') ?? null;
    const createdAfter = instantOf(raw, 'created_after');
    const createdBefore = instantOf(raw, 'created_before');
    // both bounds exclusive, on `created_at` as the batch reports it (whole seconds)
    const page = await services.batches.list(authenticatedKey(request).accountId, {
      statuses: statusesOf(raw.status),
      createdAfter: createdAfter === null ? null : (Math.floor(createdAfter / 1000) + 1) * 1000 - 1,
      createdBefore: createdBefore === null ? null : Math.ceil(createdBefore / 1000) * 1000,
      after,
      limit,
    });
    return { object: 'list', data: page.data, first_id: page.data[0]?.id ?? null, last_id: page.data.at(-1)?.id ?? null, has_more: page.hasMore };
  });

  app.get('/batches/:id', {
    schema: {
      operationId: 'getBatch',
      summary: 'A batch with its counts, and its results while their file exists',
      tags: [TAGS.batches],
      answers: { success: { 200: jsonReply(BatchSchema, 'The batch') }, errors: [404, 503] },
    },
  }, async (request) => services.batches.get(authenticatedKey(request).accountId, (request.params as { id: string }).id));

  app.post('/batches/:id/cancel', {
    schema: {
      operationId: 'cancelBatch',
      summary: 'Cancel a batch',
      tags: [TAGS.batches],
      answers: { success: { 200: jsonReply(BatchSchema, 'The batch, `cancelling` (or unchanged when already cancelling or cancelled)') }, errors: [404, 409] },
    },
  }, async (request) => services.batches.cancel(authenticatedKey(request).accountId, (request.params as { id: string }).id));
}

function statusesOf(value: unknown): BatchStatus[] {
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  return values.map((status) => {
    if (typeof status !== 'string' || !(BATCH_STATUSES as readonly string[]).includes(status)) {
      throw invalidRequest('status', `must be one of ${BATCH_STATUSES.join(', ')}`);
    }
    return status as BatchStatus;
  });
}

/** `created_after`/`created_before`: unix seconds, a date (`2026-11-27`, midnight UTC) or an ISO 8601 instant, as epoch ms. */
function instantOf(raw: RawQuery, name: string): number | null {
  const text = queryString(raw, name);
  if (text === undefined) return null;
  if (/^\d{1,12}$/.test(text)) return Number(text) * 1000;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`)
    : /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) throw invalidRequest(name, 'must be unix seconds, a date (YYYY-MM-DD) or an ISO 8601 instant');
  return at;
}
