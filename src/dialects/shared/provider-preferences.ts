import type { ProviderPreferences } from '../../core/request.js';
import type { Static } from '@sinclair/typebox';
import type { ProviderPreferencesSchema } from './routing-schema.js';

/** The `provider` member (schema-checked: unknown keys were refused) in core form. */
export function readProviderPreferences(body: Static<typeof ProviderPreferencesSchema>): ProviderPreferences {
  const preferences: ProviderPreferences = {};
  if (body.only) preferences.only = body.only;
  if (body.ignore) preferences.ignore = body.ignore;
  if (body.order) preferences.order = body.order;
  if (body.allow_fallbacks !== undefined) preferences.allowFallbacks = body.allow_fallbacks;
  if (body.require_parameters !== undefined) preferences.requireParameters = body.require_parameters;
  if (body.data_collection) preferences.dataCollection = body.data_collection;
  if (body.zdr !== undefined) preferences.zdr = body.zdr;
  if (body.quantizations) preferences.quantizations = body.quantizations;
  if (body.options) preferences.options = body.options;
  return preferences;
}
