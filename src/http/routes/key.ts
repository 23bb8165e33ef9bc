import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { authenticatedKey } from '../auth.js';
import { KeyInspectionSchema } from '../../accounts/key-inspection-schema.js';
import type { KeyContext } from '../../accounts/types.js';
import { TAGS } from '../openapi/tags.js';
import { dataReply } from '../openapi/route-answers.js';

/** `GET /key` — the key inspection record of the calling key, with the members the SDK's `getCurrentKeyMetadata` reads. */
export function registerKeyRoute(app: FastifyInstance, services: Services): void {
  app.get('/key', {
    schema: {
      operationId: 'getKey',
      summary: 'Inspect the calling key',
      tags: [TAGS.keys],
      answers: { success: { 200: dataReply(KeyInspectionSchema, 'The key inspection record') }, errors: [] },
    },
  }, async (request) => {
    const key = authenticatedKey(request);
    const [inspection, members] = await Promise.all([services.keys.inspect(key), currentKeyMembers(services, key)]);
    return { data: { ...inspection, ...members } };
  });
}

/** What `GET /key` carries beyond the spec's record; constants where the gateway has no such thing (see the README). */
async function currentKeyMembers(services: Services, key: KeyContext): Promise<Record<string, unknown>> {
  const row = await services.store.db.selectFrom('api_keys').select('creator_user_id').where('id', '=', key.keyId).executeTakeFirst();
  return {
    workspace_id: key.workspaceId,
    organization_id: key.accountId,
    creator_user_id: row?.creator_user_id ?? null,
    is_management_key: false,
    is_provisioning_key: false,
    include_byok_in_limit: false,
    byok_usage: 0,
    byok_usage_daily: 0,
    byok_usage_weekly: 0,
    byok_usage_monthly: 0,
    allowed_data_regions: ['global'],
    free_model_daily_requests: { limit: 0, remaining: 0, used: 0 },
    rate_limit: { requests: services.limiters.perKey.limit, interval: '60s', note: 'Every authenticated request of the key counts, in a 60-second sliding window' },
  };
}
