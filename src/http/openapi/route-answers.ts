import type { TSchema } from '@sinclair/typebox';
import type { ErrorStatus } from './error-replies.js';
import type { HeaderDoc, MediaDoc, ResponseDoc } from './response-doc.js';

/**
 * What a route answers, for the OpenAPI document only. It is not Fastify's `response` schema, so
 * no serializer is compiled from it: replies keep their bytes and cost no serialization.
 */
export interface RouteAnswers {
  /** The successful replies by status. */
  success: Record<number, ResponseDoc>;
  /** Statuses of the route's own refusals; its scope adds those of its guard (see scope-docs.ts). */
  errors: readonly ErrorStatus[];
  /** The body of its errors where its dialect has its own envelope; the shared envelope otherwise. */
  errorBody?: TSchema;
  /** The request body by content type, where the route reads more than a JSON body. */
  requestBody?: Record<string, MediaDoc>;
  /**
   * The query parameters it reads, where the route reads and refuses them itself (a 400 naming the
   * parameter), so Fastify validates nothing from this.
   */
  query?: TSchema;
  /** The path parameters with their meaning, where their names alone do not say it. */
  params?: TSchema;
}

declare module 'fastify' {
  interface FastifySchema {
    answers?: RouteAnswers;
  }
}

const PROVIDER_HEADER: Record<string, HeaderDoc> = {
  'X-Provider-Name': { description: 'Display name of the serving provider', type: 'string' },
};

/** A JSON reply. */
export function jsonReply(schema: TSchema, description: string, headers?: Record<string, HeaderDoc>): ResponseDoc {
  return { description, ...(headers && { headers }), content: { 'application/json': { schema } } };
}

/** A JSON reply carrying the `{data}` wrapper. */
export function dataReply(schema: TSchema, description: string): ResponseDoc {
  return { description, content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: schema } } } } };
}

/** The whole reply of an inference route, naming its provider in a header. */
export function inferenceReply(schema: TSchema, description: string): ResponseDoc {
  return jsonReply(schema, description, PROVIDER_HEADER);
}

/** A reply whose body is the media itself, in one of `contentTypes`, naming its provider in a header. */
export function mediaReply(contentTypes: readonly string[], description: string, headers: Record<string, HeaderDoc> = {}): ResponseDoc {
  return {
    description,
    headers: { ...PROVIDER_HEADER, ...headers },
    content: Object.fromEntries(contentTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
  };
}

/** The whole reply with `stream` false or absent, or the event stream with `stream: true`. */
export function wholeOrStreamed(schema: TSchema, description: string, stream: string): ResponseDoc {
  const whole = inferenceReply(schema, `${description}; with \`stream: true\`, server-sent events`);
  return {
    ...whole,
    content: { ...whole.content, 'text/event-stream': { schema: { type: 'string', description: stream } } },
  };
}
