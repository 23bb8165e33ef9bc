import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/** The parts of an OpenAPI 3.1 document the contract test reads. */
export interface MediaType {
  schema?: unknown;
}
export interface Response {
  description: string;
  headers?: Record<string, { schema?: unknown }>;
  content?: Record<string, MediaType>;
}
export interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, MediaType> };
  parameters?: { schema?: unknown }[];
  responses: Record<string, Response>;
}
export interface OpenApiDocument {
  openapi: string;
  tags?: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const DOCUMENT_ID = 'openapi.json';
const COMPONENT_PREFIX = '#/components/schemas/';

/** `#/components/schemas/X` as a reference from outside the document's own root. */
function rebased(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebased);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).map(([member, value]) => [
    member,
    member === '$ref' && typeof value === 'string' ? value.replace(COMPONENT_PREFIX, `${DOCUMENT_ID}#/$defs/`) : rebased(value),
  ]));
}

/**
 * Compiles the document's schemas as JSON Schema 2020-12 (the dialect of OpenAPI 3.1) in strict
 * mode, so a keyword that is not JSON Schema, or a reference that leads nowhere, fails to compile.
 * (A tagged union requires its tag before naming it in each branch: valid, so `strictRequired` is off.)
 */
export function schemaCompiler(document: OpenApiDocument, options: { closed?: boolean } = {}): (schema: unknown) => ValidateFunction {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, discriminator: true, allErrors: true });
  const prepare = (schema: unknown) => (options.closed ? closed(rebased(schema)) : rebased(schema));
  ajv.addSchema({ $id: DOCUMENT_ID, $defs: prepare(document.components.schemas) as Record<string, object> });
  return (schema) => ajv.compile(prepare(schema) as object);
}

/**
 * `schema` with every object that lists its members closed to others (`unevaluatedProperties:
 * false`), so a reply member the document does not name fails validation: the document then
 * says every member a reply carries, not just some.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = Object.fromEntries(Object.entries(schema).map(([member, value]) => [member, closed(value)]));
  if (copy.type === 'object' && 'properties' in copy && !('additionalProperties' in copy)) copy.unevaluatedProperties = false;
  return copy;
}

/** Every schema of the document, with where it stands. */
export function* documentSchemas(document: OpenApiDocument): Generator<[string, unknown]> {
  // a component is compiled through its reference, once, as the operations refer to it
  for (const name of Object.keys(document.components.schemas)) yield [`components.schemas.${name}`, { $ref: `${COMPONENT_PREFIX}${name}` }];
  for (const [path, operation, method] of operations(document)) {
    const at = `${method.toUpperCase()} ${path}`;
    for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) yield [`${at} request ${type}`, media.schema];
    for (const [index, parameter] of (operation.parameters ?? []).entries()) yield [`${at} parameter ${index}`, parameter.schema];
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const [type, media] of Object.entries(response.content ?? {})) yield [`${at} ${status} ${type}`, media.schema];
      for (const [name, header] of Object.entries(response.headers ?? {})) yield [`${at} ${status} header ${name}`, header.schema];
    }
  }
}

export function* operations(document: OpenApiDocument): Generator<[string, Operation, string]> {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) yield [path, operation, method];
  }
}

/** The names of the components a schema reaches through its references, transitively. */
export function reachedComponents(document: OpenApiDocument, schema: unknown, reached = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) reachedComponents(document, item, reached);
  } else if (typeof schema === 'object' && schema !== null) {
    for (const [member, value] of Object.entries(schema)) {
      if (member === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_PREFIX)) {
        const name = value.slice(COMPONENT_PREFIX.length);
        if (!reached.has(name)) {
          reached.add(name);
          reachedComponents(document, document.components.schemas[name], reached);
        }
      } else {
        reachedComponents(document, value, reached);
      }
    }
  }
  return reached;
}

/**
 * The routes of `printRoutes({commonPrefix: false})`, as `METHOD /path`: each line is a node whose
 * text continues its parent's path, with the methods it answers in parentheses.
 */
export function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([\s│]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/u.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(', ').filter((name) => name !== '')) routes.push(`${method} ${stack.join('')}`);
  }
  return routes;
}
