import type { FastifyInstance } from 'fastify';
import { setWorkspaceRoutingDefaults } from '../accounts/workspace-routing.js';
import type { Services } from '../http/services.js';
import { usd, utcTime } from './dashboard-data.js';
import { formField } from './form-fields.js';
import { renderPage } from './page-render.js';
import { fieldRefusal, ownersOnly, pageNotFound } from './page-refusal.js';
import { readSpendSeries } from './spend-series.js';
import { pageChange, sessionOf } from './web-guard.js';

const GENERATION_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * `GET /dashboard/generations/:id` (one generation record of the account, 404 for any other id),
 * `GET /dashboard/spend.json` (the chart's data), `POST /dashboard/workspaces/:id/routing` (a
 * workspace's routing defaults as JSON; owners only).
 */
export function registerRecordPages(scope: FastifyInstance, services: Services): void {
  scope.get<{ Params: { id: string } }>('/dashboard/generations/:id', { schema: { hide: true } }, async (request, reply) => {
    const { id } = request.params;
    const record = GENERATION_ID.test(id) ? await services.generations.get(id, sessionOf(request).user.accountId) : null;
    if (!record) throw pageNotFound();
    return renderPage(request, reply, 'generation', {
      title: `Generation ${record.id}`,
      record: {
        id: record.id,
        model: record.model,
        provider: record.providerName ?? '—',
        endpoint: record.endpointId ?? '—',
        status: record.status,
        streamed: record.streamed ? 'yes' : 'no',
        finish: record.finishReason ?? '—',
        error: record.errorMessage === null ? null : `${record.errorCode ?? ''} ${record.errorMessage}`.trim(),
        promptTokens: record.promptTokens ?? '—',
        completionTokens: record.completionTokens ?? '—',
        reasoningTokens: record.reasoningTokens ?? '—',
        cachedTokens: record.cachedTokens ?? '—',
        cost: usd(record.cost),
        lines: record.costLines.map((line) => ({ key: line.key, quantity: String(line.quantity), amount: line.amount === null ? '—' : usd(line.amount) })),
        uncollected: record.uncollected ? `${usd(record.uncollected.amount)} (${record.uncollected.reasons.join(', ')})` : null,
        created: utcTime(record.createdAt),
        latency: record.latencyMs === null ? '—' : `${record.latencyMs} ms`,
        app: record.appTitle ?? record.appReferer ?? '—',
      },
    });
  });

  scope.get('/dashboard/spend.json', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return readSpendSeries(services.store, sessionOf(request).user.accountId);
  });

  scope.post<{ Params: { id: string } }>('/dashboard/workspaces/:id/routing', { schema: { hide: true } }, async (request, reply) => {
    const { user } = sessionOf(request);
    if (user.role !== 'owner') throw ownersOnly();
    const workspace = await services.store.db.selectFrom('workspaces').select('id').where('id', '=', request.params.id).where('account_id', '=', user.accountId).executeTakeFirst();
    if (!workspace) throw pageNotFound();
    const provider = readRoutingJson(formField(request.body, 'routing'));
    try {
      await setWorkspaceRoutingDefaults(services.store, workspace.id, provider, pageChange(request));
    } catch (error) {
      if (error instanceof RangeError) throw fieldRefusal('Routing defaults', error.message);
      throw error;
    }
    return reply.redirect('/dashboard?done=routing', 303);
  });
}

/** The routing defaults field: empty removes them, otherwise a JSON object in the request's `provider` form. */
function readRoutingJson(text: string): unknown {
  if (text.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw fieldRefusal('Routing defaults', `not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw fieldRefusal('Routing defaults', 'must be a JSON object such as {"sort": "price"}.');
  return parsed;
}
