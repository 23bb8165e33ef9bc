import { Type, type Static } from '@sinclair/typebox';
import { IdentifierString, ModelsSchema, ProviderPreferencesSchema, RouteAlias } from '../shared/routing-schema.js';

/** The body of POST /completions (spec 01). Unknown members are accepted and not forwarded. */
export const CompletionsRequestSchema = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    models: Type.Optional(ModelsSchema),
    prompt: Type.String(),
    stream: Type.Optional(Type.Boolean()),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    top_p: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
    top_k: Type.Optional(Type.Integer({ minimum: -1 })),
    frequency_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
    presence_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
    repetition_penalty: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2 })),
    seed: Type.Optional(Type.Integer()),
    stop: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
    max_tokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_048_576 })),
    logprobs: Type.Optional(Type.Integer({ minimum: 0 })),
    echo: Type.Optional(Type.Boolean()),
    suffix: Type.Optional(Type.String()),
    user: Type.Optional(IdentifierString),
    provider: Type.Optional(ProviderPreferencesSchema),
    route: Type.Optional(RouteAlias),
  },
  { additionalProperties: true },
);

export type CompletionsRequestBody = Static<typeof CompletionsRequestSchema>;
