import { Type } from '@sinclair/typebox';

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** A `GET /providers` record (directory-records.ts `providerRecords`). */
export const ProviderRecordSchema = Type.Object({
  id: Type.String({ description: 'Stable identity that survives a slug rename' }),
  slug: Type.String(),
  name: Type.String(),
  privacy_policy_url: NullableString,
  terms_of_service_url: NullableString,
  status_page_url: NullableString,
  headquarters: Type.Union([Type.String(), Type.Null()], { description: 'Country code; null when not stated' }),
  datacenters: Type.Array(Type.String(), { description: 'Country codes or regions' }),
  data_policy: Type.Object({ training: Type.Boolean(), retention_days: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]) }),
  compliance: Type.Object({ zdr: Type.Boolean(), zdr_status: NullableString, hipaa: Type.Boolean() }),
  endpoint_count: Type.Integer({ minimum: 0, description: 'Live endpoints it serves' }),
});

/** A `GET /families` record: a family with served models, its models newest first. */
export const FamilyRecordSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  model_count: Type.Integer({ minimum: 1 }),
  models: Type.Array(Type.String()),
});

/** `GET /stats/public`: what the catalogue serves right now. */
export const PublicStatsSchema = Type.Object({
  models: Type.Integer({ minimum: 0, description: 'Served models' }),
  endpoints: Type.Integer({ minimum: 0, description: 'Their live endpoints' }),
  endpoints_healthy: Type.Integer({ minimum: 0 }),
  providers: Type.Integer({ minimum: 0, description: 'Providers serving a live endpoint' }),
  families: Type.Integer({ minimum: 0, description: 'Families with a served model' }),
  catalogue_loaded_at: Type.String({ description: 'ISO 8601 instant the catalogue was loaded' }),
});
