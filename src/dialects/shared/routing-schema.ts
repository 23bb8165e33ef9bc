import { Type } from '@sinclair/typebox';

/** Routing controls shared by every dialect that takes them. */
export const ModelsSchema = Type.Array(Type.String({ minLength: 1 }), { maxItems: 20 });

const SortBy = Type.Union([Type.Literal('price'), Type.Literal('throughput'), Type.Literal('latency')]);
export const PARTITIONS = ['model', 'none', 'fallback', 'sort'] as const;
const Partition = Type.Union(PARTITIONS.map((value) => Type.Literal(value)));

const PriceCeiling = Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^\\d+(\\.\\d+)?$' })]);

export const ProviderPreferencesSchema = Type.Object(
  {
    only: Type.Optional(Type.Array(Type.String())),
    ignore: Type.Optional(Type.Array(Type.String())),
    order: Type.Optional(Type.Array(Type.String())),
    allow_fallbacks: Type.Optional(Type.Boolean()),
    require_parameters: Type.Optional(Type.Boolean()),
    data_collection: Type.Optional(Type.Union([Type.Literal('allow'), Type.Literal('deny')])),
    zdr: Type.Optional(Type.Boolean()),
    quantizations: Type.Optional(Type.Array(Type.String())),
    sort: Type.Optional(Type.Union([
      SortBy,
      Type.Object({ by: Type.Optional(SortBy), partition: Type.Optional(Partition) }, { additionalProperties: false }),
    ])),
    max_price: Type.Optional(Type.Object(
      { prompt: Type.Optional(PriceCeiling), completion: Type.Optional(PriceCeiling), request: Type.Optional(PriceCeiling), image: Type.Optional(PriceCeiling) },
      { additionalProperties: false },
    )),
    options: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()))),
  },
  { additionalProperties: false },
);

export const RouteAlias = Type.Union([Type.Literal('fallback'), Type.Literal('sort')]);

export const IdentifierString = Type.String({ maxLength: 256 });
