import { Type, type Static } from '@sinclair/typebox';
import { tagged } from '../shared/tagged-union.js';

const open = { additionalProperties: true } as const;

/**
 * `thinking` in any of the Anthropic API's forms (`enabled` with `budget_tokens`, `adaptive`,
 * `disabled`, …): accepted and never applied (spec 01), so the shape alone is checked.
 */
export const ThinkingSchema = Type.Object(
  {
    type: Type.String({ minLength: 1 }),
    budget_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    display: Type.Optional(Type.String()),
  },
  open,
);

const JsonSchemaFormat = Type.Object({ type: Type.Literal('json_schema'), schema: Type.Record(Type.String(), Type.Unknown()) }, open);

/**
 * `output_config`: `format` (`json_schema`) asks for structured output and routes like chat's
 * `response_format` `json_schema`; `effort` is accepted and never applied.
 */
export const OutputConfigSchema = Type.Object(
  {
    effort: Type.Optional(Type.String({ minLength: 1 })),
    format: Type.Optional(tagged('type', [JsonSchemaFormat])),
  },
  open,
);

/** `context_management` (server-side context edits): accepted and never applied; edits are checked for a type. */
export const ContextManagementSchema = Type.Object(
  { edits: Type.Optional(Type.Array(Type.Object({ type: Type.String({ minLength: 1 }) }, open))) },
  open,
);

export type OutputConfig = Static<typeof OutputConfigSchema>;
