import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { Services } from './services.js';
import { frameworkError, registerErrorEnvelope } from './error-envelope.js';
import { registerDrain } from './drain.js';
import { clientErrorHandler } from './client-error.js';
import { requestTimeoutOptions } from './request-timeouts.js';
import { registerJsonBodyParser } from './json-body.js';
import { refusalRecorder } from './refusal-record.js';
import { registerScope } from './scopes.js';
import { registerRootRoute } from './routes/root.js';
import { registerKeyRoute } from './routes/key.js';
import { registerGenerationRoute } from './routes/generation.js';
import { registerChatRoute } from './routes/chat.js';
import { registerSystemOneRoute } from './routes/systemone.js';
import { registerResponsesRoute } from './routes/responses.js';
import { registerCompletionsRoute } from './routes/completions.js';
import { registerMessagesRoutes } from './routes/messages.js';
import { registerSpeechRoute } from './routes/speech.js';
import { registerEmbeddingsRoute } from './routes/embeddings.js';
import { registerRerankRoute } from './routes/rerank.js';
import { registerModelRoutes } from './routes/models.js';
import { registerModelsUserRoute } from './routes/models-user.js';
import { registerCatalogueDirectoryRoutes } from './routes/catalogue-directory.js';

export const API_PREFIX = '/api/v1';

/** The gateway's HTTP app: every route under /api/v1, errors in the shared envelope. */
export async function buildApp(services: Services): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: services.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: services.settings.bodyLimitBytes,
    ...requestTimeoutOptions(services.settings),
    clientErrorHandler: clientErrorHandler(services.settings, services.logger),
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false, discriminator: true } },
    return503OnClosing: false,
    frameworkErrors: frameworkError,
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Switchyard', version: '1', description: 'Self-hostable LLM marketplace gateway' },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  registerErrorEnvelope(app, refusalRecorder(services.ledger));
  registerJsonBodyParser(app);
  registerDrain(app);
  await app.register(async (api) => {
    await registerScope(api, services, 'public', [
      registerRootRoute,
      registerModelRoutes,
      registerCatalogueDirectoryRoutes,
      (scope) => scope.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger()),
    ]);
    await registerScope(api, services, 'key', [
      registerKeyRoute,
      registerGenerationRoute,
      registerChatRoute,
      registerSystemOneRoute,
      registerResponsesRoute,
      registerCompletionsRoute,
      registerMessagesRoutes,
      registerSpeechRoute,
      registerEmbeddingsRoute,
      registerRerankRoute,
      registerModelsUserRoute,
    ]);
  }, { prefix: API_PREFIX });
  return app;
}
