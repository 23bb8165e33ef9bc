import { Type, type Static, type TSchema, type TUnion } from '@sinclair/typebox';

/**
 * A union told apart by one member (`role`, `type`): ajv checks only the matching branch, so an
 * error names the member that is really wrong instead of every branch's mismatch.
 */
export function tagged<T extends TSchema[]>(tag: string, branches: [...T]) {
  return Type.Unsafe<Static<TUnion<T>>>({ type: 'object', required: [tag], discriminator: { propertyName: tag }, oneOf: branches });
}
