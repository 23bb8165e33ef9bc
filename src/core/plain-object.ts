/** True for a JSON object: not null, not an array. The one guard every reader of untyped JSON uses. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
