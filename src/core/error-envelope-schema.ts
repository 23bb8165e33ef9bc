import { Type } from '@sinclair/typebox';
import { ERROR_CODES } from './errors.js';

const ERROR_TYPES = [...new Set(Object.values(ERROR_CODES).map((entry) => entry.errorType))];

/**
 * The shared envelope's `metadata`: `error_type` to branch on, then whatever the error adds
 * (`field`, `required`/`spendable`, `provider_status`, `rejections`, …); members may grow.
 */
export const ErrorMetadataSchema = Type.Object(
  { error_type: Type.Union(ERROR_TYPES.map((errorType) => Type.Literal(errorType))) },
  { additionalProperties: true },
);

/** The envelope's `error` member: `code` repeats the HTTP status. */
export const ErrorDetailSchema = Type.Object(
  {
    code: Type.Integer({ minimum: 400, maximum: 599 }),
    message: Type.String(),
    metadata: ErrorMetadataSchema,
  },
);

/** The one error envelope of spec 02 (`toEnvelope` in errors.ts renders it). */
export const ErrorEnvelopeSchema = Type.Object({ error: ErrorDetailSchema });
