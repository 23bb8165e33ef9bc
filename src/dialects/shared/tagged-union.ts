import { Type, type TSchema } from '@sinclair/typebox';

/**
 * A union told apart by one member (`role`, `type`): ajv checks only the matching branch, so an
 * error names the member that is really wrong instead of every branch's mismatch.
 */
export function tagged(tag: string, branches: TSchema[]) {
  return Type.Unsafe<unknown>({ type: 'object', required: [tag], discriminator: { propertyName: tag }, oneOf: branches });
}
