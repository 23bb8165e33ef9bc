import { Type } from '@sinclair/typebox';

const Usd = Type.Number({ description: 'USD' });

/** The key inspection record of `GET /key` (spec 02; `KeyInspection` in types.ts), before the `{data}` wrapper. */
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
});
