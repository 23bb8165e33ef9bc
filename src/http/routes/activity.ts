import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ACTIVITY_DAYS, activityWindow, readDailyActivity, type ActivityQuery, type ActivityRow } from '../../billing/daily-activity.js';
import type { KeyContext } from '../../accounts/types.js';
import { toUsdNumber } from '../../billing/money.js';
import { invalidRequest } from '../../core/errors.js';
import type { Store } from '../../store/store.js';
import { authenticatedKey } from '../auth.js';
import { dataReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';
import { queryString, refuseUnknownParameters, type RawQuery } from '../query-parameters.js';
import type { Services } from '../services.js';
import { isKeyHash } from './key-input.js';

const DAY_MS = 86_400_000;

const ActivityQuerySchema = Type.Object({
  date: Type.Optional(Type.String({ description: `One UTC day, YYYY-MM-DD, within the last ${ACTIVITY_DAYS}` })),
  api_key_hash: Type.Optional(Type.String({ description: 'Only this key of the account (its hash)' })),
  workspace_id: Type.Optional(Type.String({ description: 'Only this workspace of the account' })),
  group_by: Type.Optional(Type.Literal('workspace', { description: 'One row per workspace too, naming it in `workspace_id`' })),
});

const ActivityItemSchema = Type.Object({
  date: Type.String({ description: 'UTC day, YYYY-MM-DD' }),
  model: Type.String(),
  model_permaslug: Type.String({ description: 'The model id: ids here are permanent' }),
  endpoint_id: Type.String(),
  provider_name: Type.String(),
  usage: Type.Number({ minimum: 0, description: 'USD charged' }),
  byok_usage_inference: Type.Literal(0, { description: 'Always 0: no bring-your-own-key usage' }),
  requests: Type.Integer({ minimum: 0 }),
  prompt_tokens: Type.Integer({ minimum: 0 }),
  completion_tokens: Type.Integer({ minimum: 0 }),
  reasoning_tokens: Type.Integer({ minimum: 0 }),
  workspace_id: Type.Optional(Type.String({ description: 'With `group_by=workspace`' })),
});

/**
 * `GET /activity` (an inference key of the account; management keys are refused, spec 02
 * Authentication 5): the account's settled generations per UTC day, model and endpoint over the last
 * 30 days (today included), newest day first; `date` narrows it to one of those days.
 */
export function registerActivityRoute(app: FastifyInstance, services: Services): void {
  app.get('/activity', {
    schema: {
      operationId: 'getActivity',
      summary: 'Daily activity per model and endpoint',
      tags: [TAGS.account],
      answers: { success: { 200: dataReply(Type.Array(ActivityItemSchema), 'One row per UTC day, model and endpoint') }, errors: [400], query: ActivityQuerySchema },
    },
  }, async (request) => {
    const key = authenticatedKey(request);
    const query = await activityQuery(services.store, key, request.query as RawQuery, new Date());
    const rows = await readDailyActivity(services.store.db, key.accountId, query);
    return { data: rows.map(activityItem) };
  });
}

async function activityQuery(store: Store, key: KeyContext, raw: RawQuery, at: Date): Promise<ActivityQuery> {
  refuseUnknownParameters(raw, ['date', 'api_key_hash', 'workspace_id', 'group_by']);
  const window = activityWindow(at);
  const date = queryString(raw, 'date');
  const day = date === undefined ? undefined : readDay(date, window);
  const groupBy = queryString(raw, 'group_by');
  if (groupBy !== undefined && groupBy !== 'workspace') throw invalidRequest('group_by', 'must be workspace');
  const workspaceId = queryString(raw, 'workspace_id');
  if (workspaceId !== undefined) {
    const found = await store.db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).where('account_id', '=', key.accountId).executeTakeFirst();
    if (!found) throw invalidRequest('workspace_id', 'no such workspace in the account');
  }
  const hash = queryString(raw, 'api_key_hash');
  let keyId: string | undefined;
  if (hash !== undefined) {
    const found = isKeyHash(hash) ? await store.db.selectFrom('api_keys').select('id').where('hash', '=', hash).where('account_id', '=', key.accountId).executeTakeFirst() : undefined;
    if (!found) throw invalidRequest('api_key_hash', 'no such key in the account');
    keyId = found.id;
  }
  return {
    from: day ?? window.from,
    to: day === undefined ? window.to : day + DAY_MS,
    ...(keyId !== undefined && { keyId }),
    ...(workspaceId !== undefined && { workspaceId }),
    ...(groupBy === 'workspace' && { byWorkspace: true }),
  };
}

/** A `YYYY-MM-DD` UTC day within the window, as the epoch ms of its start; otherwise a 400 naming `date`. */
function readDay(text: string, window: { from: number; to: number }): number {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== text) throw invalidRequest('date', 'must be a UTC day written YYYY-MM-DD');
  if (day < window.from || day >= window.to) throw invalidRequest('date', `must be one of the last ${ACTIVITY_DAYS} UTC days, today included`);
  return day;
}

function activityItem(row: ActivityRow): Record<string, unknown> {
  return {
    date: row.date,
    model: row.model,
    model_permaslug: row.model,
    endpoint_id: row.endpointId,
    provider_name: row.providerName,
    usage: toUsdNumber(row.usage),
    byok_usage_inference: 0,
    requests: row.requests,
    prompt_tokens: row.promptTokens,
    completion_tokens: row.completionTokens,
    reasoning_tokens: row.reasoningTokens,
    ...(row.workspaceId !== undefined && { workspace_id: row.workspaceId }),
  };
}
