import { Type } from '@sinclair/typebox';

/** Routing controls shared by every dialect that takes them. */
export const ModelsSchema = Type.Array(Type.String({ minLength: 1 }), { maxItems: 20 });

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
    sort: Type.Optional(Type.Unknown()),
    max_price: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    options: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()))),
  },
  { additionalProperties: false },
);

export const IdentifierString = Type.String({ maxLength: 256 });
