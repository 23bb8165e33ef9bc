import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findKey, updateKey, type ManagedKey } from '../accounts/key-management.js';
import { formatUsd } from '../billing/money.js';
import type { Services } from '../http/services.js';
import { usd, utcTime } from './dashboard-data.js';
import { readEditKeyForm } from './key-form.js';
import { renderPage } from './page-render.js';
import { ownersOnly, PageRefusal, pageNotFound } from './page-refusal.js';
import { pageChange, sessionOf } from './web-guard.js';

/**
 * `GET /dashboard/keys/:hash`: one key with its usage, and (for owners) the form editing its name
 * and limit; `POST` saves it. Another account's key, or a revoked one, is 404 alike.
 */
export function registerKeyPages(scope: FastifyInstance, services: Services): void {
  scope.get<{ Params: { hash: string } }>('/dashboard/keys/:hash', { schema: { hide: true } }, async (request, reply) => {
    const key = await findKey(services.store, sessionOf(request).user.accountId, request.params.hash);
    if (!key) throw pageNotFound();
    return showKey(request, reply, key, null, 200);
  });

  scope.post<{ Params: { hash: string } }>('/dashboard/keys/:hash', { schema: { hide: true } }, async (request, reply) => {
    const { user } = sessionOf(request);
    if (user.role !== 'owner') throw ownersOnly();
    const key = await findKey(services.store, user.accountId, request.params.hash);
    if (!key) throw pageNotFound();
    let form;
    try {
      form = readEditKeyForm(request.body);
    } catch (error) {
      if (!(error instanceof PageRefusal)) throw error;
      return showKey(request, reply, key, error.message, 400);
    }
    const updated = await updateKey(services.store, user.accountId, key.hash, { name: form.name, limit: form.limit }, pageChange(request));
    if (!updated) throw pageNotFound();
    return reply.redirect('/dashboard?done=updated', 303);
  });
}

function showKey(request: FastifyRequest, reply: FastifyReply, key: ManagedKey, formError: string | null, status: number): Promise<FastifyReply> {
  return renderPage(request, reply, 'key', {
    title: `Key ${key.name}`,
    owner: sessionOf(request).user.role === 'owner',
    formError,
    key: {
      hash: key.hash,
      name: key.name,
      label: key.label,
      origin: key.origin,
      management: key.management,
      state: key.disabled ? 'disabled' : 'active',
      limitUsd: key.limit ? formatUsd(key.limit.limit) : '',
      reset: key.limit?.reset ?? '',
      remaining: key.limitRemaining === null ? 'no limit' : usd(key.limitRemaining),
      usage: { total: usd(key.usage.total), daily: usd(key.usage.daily), weekly: usd(key.usage.weekly), monthly: usd(key.usage.monthly) },
      created: utcTime(key.createdAt),
      expires: key.expiresAt ? utcTime(key.expiresAt) : 'never',
    },
  }, status);
}
