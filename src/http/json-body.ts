import type { FastifyInstance } from 'fastify';
import { assertBodyDepth } from '../dialects/shared/body-depth.js';

/**
 * JSON bodies are read by Fastify's own parser (its default prototype-poisoning rules), then refused
 * with a 400 when nested too deeply, before any route hook or handler reads them.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text: string, done) => {
    parseJson(request, text, (error, body) => {
      if (error) return done(error, undefined);
      try {
        assertBodyDepth(body);
      } catch (refusal) {
        return done(refusal as Error, undefined);
      }
      return done(null, body);
    });
  });
}
