import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import { componentSchemas, referComponents } from './components.js';
import { errorResponses } from './error-replies.js';
import type { HeaderDoc, ResponseDoc } from './response-doc.js';
import type { RouteAnswers } from './route-answers.js';
import { SCOPE_DOCS, SECURITY_SCHEMES, type ScopeDocs } from './scope-docs.js';
import { TAG_DESCRIPTIONS } from './tags.js';

const GENERATION_ID: Record<string, HeaderDoc> = {
  'X-Generation-Id': { description: 'The generation id, assigned before anything can fail', type: 'string' },
};

/**
 * The options of @fastify/swagger: an OpenAPI 3.1 document whose responses come from each route's
 * `answers` (never from Fastify's `response`, which would compile a serializer), whose security and
 * guard refusals come from the route's scope, and whose shared schemas are components.
 */
export function openApiOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Switchyard', version: '1', description: 'Self-hostable LLM marketplace gateway: one HTTP API in front of many inference providers' },
      servers: [{ url: '/' }],
      tags: Object.entries(TAG_DESCRIPTIONS).map(([name, description]) => ({ name, description })),
      components: { securitySchemes: SECURITY_SCHEMES, schemas: componentSchemas() as Record<string, object> },
    },
    transform: ({ schema, url, route }) => ({ schema: documentedSchema(schema, route), url }),
  };
}

function documentedSchema(schema: FastifySchema | undefined, route: RouteOptions): FastifySchema {
  const { answers, ...rest } = schema ?? {};
  const scope = route.config?.scope === undefined ? undefined : SCOPE_DOCS[route.config.scope];
  const documented: FastifySchema = {
    ...rest,
    ...(scope && { security: scope.security }),
    ...(answers?.requestBody && { body: { content: answers.requestBody } }),
    ...(answers?.query && { querystring: answers.query }),
    ...(answers?.params && { params: answers.params }),
    ...(answers && { response: responses(answers, scope, route.config?.generationId !== undefined) }),
  };
  return referComponents(documented) as FastifySchema;
}

/**
 * The route's success replies with its guard's headers, its own and its guard's refusals, and on
 * every one the generation id where the route assigns one.
 */
function responses(answers: RouteAnswers, scope: ScopeDocs | undefined, generationId: boolean): Record<number, ResponseDoc> {
  const all = {
    ...withHeaders(answers.success, scope?.headers ?? {}),
    ...errorResponses([...answers.errors, ...(scope?.errors ?? [])], answers.errorBody),
  };
  return generationId ? withHeaders(all, GENERATION_ID) : all;
}

function withHeaders(responses: Record<number, ResponseDoc>, headers: Record<string, HeaderDoc>): Record<number, ResponseDoc> {
  if (Object.keys(headers).length === 0) return responses;
  return Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, { ...response, headers: { ...headers, ...response.headers } }]));
}
