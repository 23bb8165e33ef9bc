import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { createKey, revokeKey } from '../accounts/accounts.js';
import { updateKey } from '../accounts/key-management.js';
import { formatUsd } from '../billing/money.js';
import type { Services } from '../http/services.js';
import { readDashboard } from './dashboard-data.js';
import { queryField } from './form-fields.js';
import { readCreateKeyForm } from './key-form.js';
import { renderPage } from './page-render.js';
import { ownersOnly, PageRefusal, pageNotFound } from './page-refusal.js';
import { pageChange, sessionOf } from './web-guard.js';

/** What the dashboard says after a change, by the `done` it is sent back with. */
const NOTICES: Record<string, string> = {
  disabled: 'The key is disabled: it authenticates nothing until it is enabled again.',
  enabled: 'The key is enabled again.',
  revoked: 'The key is revoked: it never authenticates again.',
  updated: 'The key is saved.',
  routing: 'The routing defaults are saved.',
};

const AUDIT_CURSOR = /^aud_[0-9a-z]{1,60}$/;

/**
 * `GET /dashboard`: balance and credits, the spend chart, the keys (create, disable/enable,
 * revoke, edit), recent generations, batches and stored files (each downloadable at
 * `/dashboard/files/{id}`), workspaces with their routing defaults, the audit trail.
 * `POST /dashboard/keys` creates a key and shows it once.
 */
export function registerDashboardPages(scope: FastifyInstance, services: Services): void {
  scope.get('/dashboard', { schema: { hide: true } }, async (request, reply) => {
    const done = queryField(request.query, 'done');
    const after = queryField(request.query, 'audit_after');
    return showDashboard(services, request, reply, {
      notice: Object.hasOwn(NOTICES, done) ? NOTICES[done] : null,
      auditAfter: AUDIT_CURSOR.test(after) ? after : undefined,
    });
  });

  // a stored file of the account (a batch's results among them), downloaded as it is stored
  scope.get<{ Params: { id: string } }>('/dashboard/files/:id', { schema: { hide: true } }, async (request, reply) => {
    const { user } = sessionOf(request);
    let opened;
    try {
      opened = await services.files.read(user.accountId, request.params.id);
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'not_found') throw pageNotFound();
      throw error;
    }
    return reply
      .header('content-type', opened.file.contentType)
      .header('content-disposition', `attachment; filename="${opened.file.filename.replace(/[^\w.-]/g, '_')}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(opened.content));
  });

  scope.post('/dashboard/keys', { schema: { hide: true } }, async (request, reply) => {
    const { user } = sessionOf(request);
    if (user.role !== 'owner') throw ownersOnly();
    let form;
    try {
      form = readCreateKeyForm(request.body);
    } catch (error) {
      if (!(error instanceof PageRefusal)) throw error;
      return showDashboard(services, request, reply, { formError: error.message }, 400);
    }
    const created = await createKey(services.store, {
      accountId: user.accountId,
      name: form.name,
      ...(form.limit && { limitUsd: formatUsd(form.limit.limit) }),
      ...(form.limit?.reset && { limitReset: form.limit.reset }),
      ...(form.expiresAt && { expiresAt: form.expiresAt }),
      creatorUserId: user.id,
    }, pageChange(request));
    return showDashboard(services, request, reply, { newKey: { key: created.key, name: form.name } });
  });
}

interface DashboardExtras {
  notice?: string | null;
  auditAfter?: string | undefined;
  formError?: string;
  newKey?: { key: string; name: string };
}

async function showDashboard(services: Services, request: FastifyRequest, reply: FastifyReply, extras: DashboardExtras, status = 200): Promise<FastifyReply> {
  const { user } = sessionOf(request);
  const view = await readDashboard(services, user.accountId, extras.auditAfter);
  if (!view) throw pageNotFound();
  return renderPage(request, reply, 'dashboard', {
    title: 'Dashboard',
    view,
    owner: user.role === 'owner',
    notice: extras.notice ?? null,
    formError: extras.formError ?? null,
    newKey: extras.newKey ?? null,
    auditPaged: extras.auditAfter !== undefined,
  }, status);
}

/** Disable, enable and revoke: owners only, this account's keys only (anything else is 404). */
export function registerKeyActionPages(scope: FastifyInstance, services: Services): void {
  scope.post<{ Params: { hash: string; action: string } }>('/dashboard/keys/:hash/:action', { schema: { hide: true } }, async (request, reply) => {
    const { user } = sessionOf(request);
    const { hash, action } = request.params;
    if (action !== 'disable' && action !== 'enable' && action !== 'revoke') throw pageNotFound();
    if (user.role !== 'owner') throw ownersOnly();
    if (action === 'revoke') {
      if (!(await revokeKey(services.store, { accountId: user.accountId, hash }, pageChange(request)))) throw pageNotFound();
      return reply.redirect('/dashboard?done=revoked', 303);
    }
    const updated = await updateKey(services.store, user.accountId, hash, { disabled: action === 'disable' }, pageChange(request));
    if (!updated) throw pageNotFound();
    return reply.redirect(`/dashboard?done=${action === 'disable' ? 'disabled' : 'enabled'}`, 303);
  });
}
