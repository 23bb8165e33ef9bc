import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { Services } from './services.js';
import { frameworkError, registerErrorEnvelope } from './error-envelope.js';
import { registerDrain } from './drain.js';
import { clientErrorHandler } from './client-error.js';
import { requestTimeoutOptions } from './request-timeouts.js';
import { registerJsonBodyParser } from './json-body.js';
import { recordRefusalOf } from './inference/http-call.js';
import { registerScope } from './scopes.js';
import { openedToBrowsers } from './cors.js';
import { openApiOptions } from './openapi/document.js';
import { registerRequestLog } from './request-log.js';
import { requestLoggerFactory } from './request-logger.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerMetricsRoute } from './routes/metrics.js';
import { registerRootRoute } from './routes/root.js';
import { registerOpenApiRoute } from './routes/openapi.js';
import { registerKeyRoute } from './routes/key.js';
import { registerGenerationRoute } from './routes/generation.js';
import { registerChatRoute } from './routes/chat.js';
import { registerSystemOneRoute } from './routes/systemone.js';
import { registerResponsesRoute } from './routes/responses.js';
import { registerCompletionsRoute } from './routes/completions.js';
import { registerMessagesRoutes } from './routes/messages.js';
import { registerSpeechModelsRoute, registerSpeechRoute } from './routes/speech.js';
import { registerEmbeddingsModelsRoute, registerEmbeddingsRoute } from './routes/embeddings.js';
import { registerRerankRoute } from './routes/rerank.js';
import { registerImageRoutes } from './routes/images.js';
import { registerTranscriptionRoute } from './routes/transcriptions.js';
import { registerModelRoutes } from './routes/models.js';
import { registerModelsUserRoute } from './routes/models-user.js';
import { registerCatalogueDirectoryRoutes } from './routes/catalogue-directory.js';
import { registerKeysRoutes } from './routes/keys.js';
import { registerAuditRoute } from './routes/audit.js';
import { registerCreditsRoute } from './routes/credits.js';
import { registerActivityRoute } from './routes/activity.js';
import { registerAuthKeysCodeRoute, registerAuthKeysRoute } from './routes/auth-keys.js';
import { registerFilesRoutes } from './routes/files.js';
import { registerBatchRoutes } from './routes/batches.js';

export const API_PREFIX = '/api/v1';

/**
 * The longest path segment a route reads, in characters: as long as a request line can be (Node
 * refuses heads over 16 KiB). The router's own default, 100, would turn a longer model id, served
 * or not, into a framework error instead of the route's answer.
 */
const MAX_PATH_SEGMENT = 16 * 1024;

/**
 * The gateway's HTTP app: every API route under /api/v1, errors in the shared envelope; health
 * and metrics at the root; one log line per request.
 */
export async function buildApp(services: Services): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: services.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: services.settings.bodyLimitBytes,
    trustProxy: services.settings.trustProxy.length > 0 ? [...services.settings.trustProxy] : false,
    ...requestTimeoutOptions(services.settings),
    clientErrorHandler: clientErrorHandler(services.settings, services.logger),
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false, discriminator: true } },
    return503OnClosing: false,
    frameworkErrors: frameworkError,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
  });
  await app.register(swagger, openApiOptions());
  registerRequestLog(app, services);
  registerErrorEnvelope(app, (request, error) => recordRefusalOf(services, request, error));
  registerJsonBodyParser(app);
  registerDrain(app);
  await registerScope(app, services, 'operator', [registerHealthRoutes, registerMetricsRoute]);
  await app.register(async (api) => {
    await registerScope(api, services, 'public', [
      registerRootRoute, registerModelRoutes, registerSpeechModelsRoute, registerEmbeddingsModelsRoute, registerCatalogueDirectoryRoutes, registerOpenApiRoute,
      openedToBrowsers(registerAuthKeysRoute),
    ]);
    await registerScope(api, services, 'management', [registerAuthKeysCodeRoute, registerKeysRoutes, registerAuditRoute]);
    await registerScope(api, services, 'key', [
      registerKeyRoute,
      registerGenerationRoute,
      registerCreditsRoute,
      registerActivityRoute,
      registerChatRoute,
      registerSystemOneRoute,
      registerResponsesRoute,
      registerCompletionsRoute,
      registerMessagesRoutes,
      registerSpeechRoute,
      registerEmbeddingsRoute,
      registerRerankRoute,
      registerImageRoutes,
      registerTranscriptionRoute,
      registerModelsUserRoute,
      registerFilesRoutes,
      registerBatchRoutes,
    ]);
  }, { prefix: API_PREFIX });
  return app;
}
