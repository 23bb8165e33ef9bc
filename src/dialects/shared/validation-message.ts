import { GatewayError } from '../../core/errors.js';

/** The subset of an ajv error that names what was wrong. */
interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/messages/0/role` → `messages[0].role`. */
export function fieldPath(instancePath: string, extra?: string): string {
  const segments = instancePath.split('/').filter(Boolean);
  if (extra) segments.push(extra);
  return segments
    .map((segment, position) => (/^\d+$/.test(segment) ? `[${segment}]` : position === 0 ? segment : `.${segment}`))
    .join('') || 'body';
}

/**
 * Turns schema errors into one 400 naming the field. The shallowest failing path speaks, so a value
 * matching none of a union's forms is reported once, at the union, with the allowed values.
 */
export function validationError(errors: readonly SchemaError[]): GatewayError {
  const sorted = withinMatchingBranch(errors).sort((a, b) => depth(a) - depth(b) || unionFirst(a) - unionFirst(b));
  const first = sorted[0];
  if (!first) return new GatewayError('invalid_request', 'body: invalid request');
  const field = fieldPath(first.instancePath, extraSegment(first));
  return new GatewayError('invalid_request', `${field}: ${describe(first, errors)}`, { metadata: { field } });
}

/**
 * A union whose value got past one branch's type (an array of parts, an object) and failed inside it
 * speaks through that inner failure: the deeper error names the member, where the union could only
 * say "wrong type or value".
 */
function withinMatchingBranch(errors: readonly SchemaError[]): SchemaError[] {
  const unions = errors.filter((error) => error.keyword === 'anyOf').map((error) => error.instancePath);
  const entered = unions.filter((path) => errors.some((error) => error.instancePath.startsWith(`${path}/`)));
  if (entered.length === 0) return [...errors];
  return errors.filter((error) => !entered.includes(error.instancePath) || depth(error) > error.instancePath.split('/').length);
}

function depth(error: SchemaError): number {
  const base = error.instancePath.split('/').length;
  return error.keyword === 'required' || error.keyword === 'additionalProperties' ? base + 1 : base;
}

function unionFirst(error: SchemaError): number {
  return error.keyword === 'anyOf' ? 0 : 1;
}

function extraSegment(error: SchemaError): string | undefined {
  if (error.keyword === 'required') return String(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') return String(error.params.additionalProperty);
  if (error.keyword === 'discriminator') return String(error.params.tag);
  return undefined;
}

function describe(error: SchemaError, all: readonly SchemaError[]): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'unknown member';
    case 'discriminator':
      return error.params.tagValue === undefined ? 'is required' : `unknown value ${JSON.stringify(error.params.tagValue)}`;
    case 'anyOf': {
      const allowed = all
        .filter((other) => other.instancePath === error.instancePath && other.keyword === 'const')
        .map((other) => JSON.stringify(other.params.allowedValue));
      return allowed.length > 0 ? `must be one of ${allowed.join(', ')}` : 'has the wrong type or value';
    }
    default:
      return error.message ?? 'is invalid';
  }
}
