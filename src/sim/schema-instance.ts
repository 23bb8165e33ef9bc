import { isPlainObject } from '../core/plain-object.js';

/**
 * A small value matching a JSON schema, for `follow_schema`: `const`, the first `enum` value, then
 * by `type` — an object with every property (each an instance of its own schema), an array with
 * one item, "sim" for a string, 1 for a number, true for a boolean. The first `anyOf`/`oneOf`
 * branch stands for the choice; an unknown schema gives null.
 */
export function schemaInstance(schema: unknown): unknown {
  if (!isPlainObject(schema)) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const branch = [schema.anyOf, schema.oneOf].find((options) => Array.isArray(options) && options.length > 0);
  if (Array.isArray(branch)) return schemaInstance(branch[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = isPlainObject(schema.properties) ? schema.properties : {};
      return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, schemaInstance(property)]));
    }
    case 'array':
      return [schemaInstance(schema.items)];
    case 'string':
      return 'sim';
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/** The schema of a chat body's `response_format` when it is `json_schema`; undefined otherwise. */
export function requestedSchema(body: Record<string, unknown>): unknown {
  const format = body.response_format;
  if (!isPlainObject(format) || format.type !== 'json_schema' || !isPlainObject(format.json_schema)) return undefined;
  return format.json_schema.schema;
}
