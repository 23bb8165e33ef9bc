import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import view from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyInstance } from 'fastify';
import { registerScope } from '../http/scopes.js';
import { addWebGuard } from './web-guard.js';
import type { Services } from '../http/services.js';
import { registerApprovalPages } from './approval-pages.js';
import { registerDashboardPages, registerKeyActionPages } from './dashboard-pages.js';
import { formField } from './form-fields.js';
import { registerKeyPages } from './key-pages.js';
import { registerRecordPages } from './record-pages.js';
import { registerSignInPages } from './sign-in-pages.js';
import { registerWebErrorPages } from './web-errors.js';

/**
 * Templates and assets live beside the sources (`src/web/`); the compiled pages (`dist/web/`) find
 * them at the same place, one level up and across.
 */
const TEMPLATES_DIR = fileURLToPath(new URL('../../src/web/templates/', import.meta.url));
const PUBLIC_DIR = fileURLToPath(new URL('../../src/web/public/', import.meta.url));
const UPLOT_DIR = fileURLToPath(new URL('../../node_modules/uplot/dist/', import.meta.url));

/** Largest form accepted by the pages. */
const FORM_BODY_LIMIT = 64 * 1024;

/**
 * The web pages (`/auth/login`, `/auth`, `/dashboard…`) in their own context: server-rendered eta
 * templates, forms, cookies, CSRF tokens and a strict CSP (scripts and styles from files only,
 * nothing from another origin) apply here and nowhere else; the assets (`/assets/…`, uPlot among
 * them) are served from local files.
 */
export async function registerWebPages(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (web) => {
    await web.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
        },
      },
    });
    await web.register(cookie);
    await web.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
    await web.register(csrfProtection, { sessionPlugin: '@fastify/session', getToken: (request) => formField(request.body, '_csrf') });
    await web.register(view, { engine: { eta: new Eta() }, templates: TEMPLATES_DIR });
    await web.register(fastifyStatic, { root: PUBLIC_DIR, prefix: '/assets/', index: false, cacheControl: true, maxAge: '1h' });
    await web.register(fastifyStatic, { root: UPLOT_DIR, prefix: '/assets/uplot/', index: false, decorateReply: false, maxAge: '1h' });
    registerWebErrorPages(web);
    await registerScope(web, services, 'web', [
      registerSignInPages, registerApprovalPages, registerDashboardPages, registerKeyActionPages, registerKeyPages, registerRecordPages,
    ], addWebGuard);
  });
}
