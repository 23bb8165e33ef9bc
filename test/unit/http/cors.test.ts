import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { openedToBrowsers } from '../../../src/http/cors.js';
import { registerErrorEnvelope } from '../../../src/http/error-envelope.js';
import type { Services } from '../../../src/http/services.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A public-like scope: its guard refuses a request asking to be refused, as an address limit would. */
async function appWithOpenedRoute(): Promise<FastifyInstance> {
  const app = Fastify();
  apps.push(app);
  registerErrorEnvelope(app);
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      if (request.headers['x-refuse'] === 'yes') throw new GatewayError('rate_limit_exceeded', 'Rate limit exceeded; retry later');
    });
    scope.post('/closed', async () => ({ ok: true }));
    await openedToBrowsers(async (opened) => {
      opened.post('/auth/keys', async () => ({ key: 'k' }));
    })(scope, {} as Services);
  }, { prefix: '/api/v1' });
  return app;
}

describe('openedToBrowsers', () => {
  it('opens the routes it registers: preflight answered, replies carry Access-Control-Allow-Origin: *', async () => {
    const app = await appWithOpenedRoute();
    const preflight = await app.inject({ method: 'OPTIONS', url: '/api/v1/auth/keys', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type');
    const reply = await app.inject({ method: 'POST', url: '/api/v1/auth/keys', headers: { origin: 'https://app.example' }, payload: {} });
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('a refusal by the enclosing scope\'s guard carries it too', async () => {
    const app = await appWithOpenedRoute();
    const refused = await app.inject({ method: 'POST', url: '/api/v1/auth/keys', headers: { origin: 'https://app.example', 'x-refuse': 'yes' }, payload: {} });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
  });

  it('leaves the scope\'s other routes closed', async () => {
    const app = await appWithOpenedRoute();
    const preflight = await app.inject({ method: 'OPTIONS', url: '/api/v1/closed', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(preflight.statusCode).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const reply = await app.inject({ method: 'POST', url: '/api/v1/closed', payload: {} });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });
});
