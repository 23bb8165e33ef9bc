import { Type } from '@sinclair/typebox';

const Usd = Type.Number({ description: 'USD' });
const NullableString = Type.Union([Type.String(), Type.Null()]);
const LimitResetSchema = Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly'), Type.Null()], {
  description: 'The UTC window the limit counts over (weeks from Monday); null: the key\'s whole lifetime',
});
const NoByokUsage = Type.Literal(0, { description: 'Always 0: the gateway serves no bring-your-own-key usage' });

/**
 * One inference key as the management API (`/keys`) answers it, inside `{data}`: the members
 * `@openrouter/sdk` requires, never the key itself (only its hash and masked label).
 */
export const KeyRecordSchema = Type.Object({
  hash: Type.String({ description: 'SHA-256 hex of the key: its id in `/keys/{hash}`' }),
  name: Type.String(),
  label: Type.String({ description: 'Masked form of the key' }),
  disabled: Type.Boolean({ description: 'A disabled key authenticates nothing until enabled again' }),
  limit: Type.Union([Usd, Type.Null()], { description: 'The key\'s own spend limit; null without one' }),
  limit_remaining: Type.Union([Type.Number({ minimum: 0, description: 'USD' }), Type.Null()], { description: 'The limit minus the usage in its window, never below 0; null without a limit' }),
  limit_reset: LimitResetSchema,
  include_byok_in_limit: Type.Boolean({ description: 'Always false: there is no bring-your-own-key usage to include' }),
  usage: Usd,
  usage_daily: Usd,
  usage_weekly: Usd,
  usage_monthly: Usd,
  byok_usage: NoByokUsage,
  byok_usage_daily: NoByokUsage,
  byok_usage_weekly: NoByokUsage,
  byok_usage_monthly: NoByokUsage,
  created_at: Type.String({ description: 'ISO 8601' }),
  updated_at: Type.Union([Type.String({ description: 'ISO 8601' }), Type.Null()], { description: 'null until first changed' }),
  expires_at: Type.Union([Type.String({ description: 'ISO 8601' }), Type.Null()]),
  workspace_id: Type.String(),
  creator_user_id: Type.Union([Type.String(), Type.Null()], { description: 'The person who created it on the dashboard or approved it; null from the CLI or this API' }),
  external_user: Type.Null({ description: 'Always null: keys are not issued for outside users' }),
  origin: Type.Union([Type.String(), Type.Null()], { description: 'The callback origin of a key issued through the approval flow; null otherwise' }),
});

const LimitInput = Type.Union([Type.Number(), Type.Null()], { description: 'USD; read exactly through its shortest decimal form; null: no limit' });
const LimitResetInput = Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly'), Type.Null()]);

/** `POST /keys`. */
export const CreateKeyBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  limit: Type.Optional(LimitInput),
  limit_reset: Type.Optional(LimitResetInput),
  expires_at: Type.Optional(Type.Union([Type.String({ description: 'A future ISO 8601 instant with its offset' }), Type.Null()])),
  workspace_id: Type.Optional(Type.String({ description: 'A workspace of the account; default its first' })),
  include_byok_in_limit: Type.Optional(Type.Boolean({ description: 'Accepted; changes nothing, as there is no bring-your-own-key usage' })),
  creator_user_id: Type.Optional(Type.Union([Type.String({ description: 'A person of the account' }), Type.Null()])),
}, { additionalProperties: false });

/** `PATCH /keys/{hash}`: absent members stay as they are. */
export const UpdateKeyBodySchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  disabled: Type.Optional(Type.Boolean()),
  limit: Type.Optional(LimitInput),
  limit_reset: Type.Optional(LimitResetInput),
  include_byok_in_limit: Type.Optional(Type.Boolean({ description: 'Accepted; changes nothing' })),
}, { additionalProperties: false });

export const KeyHashParamsSchema = Type.Object({
  hash: Type.String({ description: 'The key\'s hash, as `GET /keys` lists it' }),
});
