import type { FastifyError, FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { renderPage } from './page-render.js';
import { PageRefusal } from './page-refusal.js';

/** What a page says for each refusal that is not its own. */
function describe(error: FastifyError): PageRefusal {
  if (error instanceof PageRefusal) return error;
  if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
    return new PageRefusal(403, 'Form refused', 'This form could not be verified: it may be out of date or come from another site. Nothing was changed. Go back, reload the page and try again.');
  }
  if (error instanceof GatewayError) return new PageRefusal(error.status, error.status === 429 ? 'Too many requests' : 'Refused', error.message);
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new PageRefusal(413, 'Too large', 'The form sent more than a page accepts.');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new PageRefusal(415, 'Refused', 'Pages accept forms only.');
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new PageRefusal(error.statusCode, 'Refused', 'The request could not be read.');
  }
  return new PageRefusal(500, 'Something went wrong', 'The page could not be shown because of a fault in the service. Try again shortly.');
}

/** Refusals on the web pages are pages too (never the API's JSON envelope); faults are logged, never shown. */
export function registerWebErrorPages(web: FastifyInstance): void {
  web.setErrorHandler(async (error: FastifyError, request, reply) => {
    const refusal = describe(error);
    if (refusal.status >= 500) request.log.error({ err: error }, 'web page failed');
    if (error instanceof GatewayError) reply.headers(error.headers);
    return renderPage(request, reply, 'error', { title: refusal.title, message: refusal.message }, refusal.status);
  });
}
