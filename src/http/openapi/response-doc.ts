/** An OpenAPI media type: the schema of a body in one content type. */
export interface MediaDoc {
  schema: unknown;
}

/** A response header, as @fastify/swagger takes it: the header's schema, with its description. */
export interface HeaderDoc {
  description: string;
  type: 'string' | 'integer';
  minimum?: number;
}

/** An OpenAPI response: what a reply of one status carries. */
export interface ResponseDoc {
  description: string;
  headers?: Record<string, HeaderDoc>;
  content?: Record<string, MediaDoc>;
}
