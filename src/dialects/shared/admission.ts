import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fastUri from 'fast-uri';
import type { TSchema } from '@sinclair/typebox';
import { GatewayError } from '../../core/errors.js';
import { assertBodyDepth } from './body-depth.js';
import { dropNullMembers } from './null-members.js';
import type { HeaderBag } from './request-headers.js';
import { validationError } from './validation-message.js';

/** A body a dialect admitted, as what the pipeline runs; or the refusal the live route answers with. */
export type Admission<Admitted> = { ok: true; value: Admitted } | { ok: false; error: GatewayError };

/**
 * The schema checker every dialect's body goes through, configured as the HTTP framework's own:
 * nothing coerced, defaulted or removed, the first failure only (every error would let one body
 * cost the checker as much as it likes), discriminated unions judged by their tag.
 */
const checker = new Ajv({
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  allErrors: false,
  discriminator: true,
  addUsedSchema: false,
  uriResolver: fastUri,
});
addFormats.default(checker);

/**
 * Admits an unknown body as `decode` reads it, with exactly the errors its route answers: optional
 * members sent as `null` dropped (in place), nesting deeper than the limit refused, the schema
 * checked (a 400 naming the field), then decoded (whose own rules throw their refusals). Compiled
 * once per dialect.
 */
export function admitter<Body, Admitted>(schema: TSchema, decode: (body: Body, headers: HeaderBag) => Admitted): (body: unknown, headers: HeaderBag) => Admission<Admitted> {
  let check: ValidateFunction | undefined;
  return (body, headers) => {
    try {
      dropNullMembers(body);
      assertBodyDepth(body);
      check ??= checker.compile(schema);
      if (!check(body)) return { ok: false, error: validationError(check.errors ?? []) };
      return { ok: true, value: decode(body as Body, headers) };
    } catch (error) {
      if (error instanceof GatewayError) return { ok: false, error };
      throw error;
    }
  };
}
