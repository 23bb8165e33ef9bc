import { Type } from '@sinclair/typebox';

const Usd = Type.Number({ description: 'USD' });
const NoByokUsage = Type.Literal(0, { description: 'Always 0: the gateway serves no bring-your-own-key usage' });

/**
 * The key inspection record of `GET /key` (spec 02; `KeyInspection` in types.ts), before the `{data}`
 * wrapper, followed by the members `@openrouter/sdk`'s `apiKeys.getCurrentKeyMetadata` requires
 * (`CurrentKeyMembers`), stated as this gateway knows them.
 */
export const KeyInspectionSchema = Type.Object({
  label: Type.String({ description: 'Masked form of the key' }),
  name: Type.String(),
  limit: Type.Union([Usd, Type.Null()]),
  limit_remaining: Type.Union([Usd, Type.Null()]),
  limit_reset: Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly'), Type.Null()]),
  usage: Usd,
  usage_daily: Usd,
  usage_weekly: Usd,
  usage_monthly: Usd,
  is_free_tier: Type.Boolean(),
  expires_at: Type.Union([Type.String({ description: 'ISO 8601' }), Type.Null()]),
  workspace_id: Type.String({ description: 'The key\'s workspace' }),
  organization_id: Type.String({ description: 'The key\'s account' }),
  creator_user_id: Type.Union([Type.String(), Type.Null()], { description: 'The person who created or approved the key; null from the CLI or the management API' }),
  is_management_key: Type.Literal(false, { description: 'Always false: a management key is refused here (it reports spend)' }),
  is_provisioning_key: Type.Literal(false, { description: 'Always false, as `is_management_key`' }),
  include_byok_in_limit: Type.Literal(false, { description: 'Always false: there is no bring-your-own-key usage' }),
  byok_usage: NoByokUsage,
  byok_usage_daily: NoByokUsage,
  byok_usage_weekly: NoByokUsage,
  byok_usage_monthly: NoByokUsage,
  allowed_data_regions: Type.Array(Type.Literal('global'), { description: 'Always ["global"]: keys are not bound to a data region' }),
  free_model_daily_requests: Type.Object({
    limit: Type.Literal(0),
    remaining: Type.Literal(0),
    used: Type.Literal(0),
  }, { description: 'Always zeros: there is no free-model allowance; every request is paid from credit' }),
  rate_limit: Type.Object({
    requests: Type.Integer({ minimum: 1, description: 'Requests allowed per interval' }),
    interval: Type.Literal('60s'),
    note: Type.String(),
  }, { description: 'The key\'s request rate: every authenticated request, a 60-second sliding window' }),
});
