import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { issueAuthCode } from '../accounts/auth-codes.js';
import { resolveWorkspace } from '../accounts/key-writer.js';
import { readAccountOverview } from '../accounts/account-overview.js';
import { formatUsd } from '../billing/money.js';
import type { Services } from '../http/services.js';
import { approvalFields, readApprovalRequest, type ApprovalRequest } from './approval-request.js';
import { callbackWith } from '../accounts/callback-url.js';
import { formField } from './form-fields.js';
import { renderPage } from './page-render.js';
import { ownersOnly } from './page-refusal.js';
import { sessionOf } from './web-guard.js';

/**
 * `GET /auth`: the approval page (the application's origin, the limit, Approve and Decline), or a
 * refusal naming the parameter at fault. `POST /auth`: Approve issues a one-time code and sends
 * the browser to the callback with it (or shows it, for a loopback callback or manual mode);
 * Decline sends the browser back with `error=access_denied`.
 */
export function registerApprovalPages(scope: FastifyInstance, services: Services): void {
  scope.get('/auth', { schema: { hide: true } }, async (request, reply) => {
    const asked = readApprovalRequest(request.query);
    if ('problem' in asked) return refused(request, reply, asked);
    const account = await readAccountOverview(services.store, sessionOf(request).user.accountId);
    allowFormTo(reply, asked);
    return renderPage(request, reply, 'approval', {
      title: 'Approve an application',
      origin: asked.callback.origin,
      limit: asked.limit === null ? null : formatUsd(asked.limit),
      accountName: account?.name ?? '',
      fields: approvalFields(asked),
      owner: sessionOf(request).user.role === 'owner',
    });
  });

  scope.post('/auth', { schema: { hide: true } }, async (request, reply) => {
    const asked = readApprovalRequest(request.body);
    if ('problem' in asked) return refused(request, reply, asked);
    const decision = formField(request.body, 'decision');
    if (decision === 'decline') return decline(request, reply, asked);
    if (decision !== 'approve') return refused(request, reply, { field: 'decision', problem: 'must be approve or decline' });
    const { user } = sessionOf(request);
    if (user.role !== 'owner') throw ownersOnly();
    const workspaceId = await resolveWorkspace(services.store.db, user.accountId);
    const { code } = await issueAuthCode(services.store, {
      accountId: user.accountId,
      approver: { kind: 'user', userId: user.id },
      workspaceId,
      callbackOrigin: asked.callback.origin,
      limit: asked.limit,
    }, asked.codeChallenge);
    if (asked.manual || asked.callback.loopback) {
      return renderPage(request, reply, 'approval-code', {
        title: 'Application approved',
        origin: asked.callback.origin,
        code,
        continueUrl: asked.manual ? null : callbackWith(asked.callback, { code }),
      });
    }
    return reply.redirect(callbackWith(asked.callback, { code }), 302);
  });
}

async function decline(request: FastifyRequest, reply: FastifyReply, asked: ApprovalRequest): Promise<FastifyReply> {
  if (asked.manual) return renderPage(request, reply, 'approval-declined', { title: 'Declined', origin: asked.callback.origin });
  return reply.redirect(callbackWith(asked.callback, { error: 'access_denied' }), 302);
}

function refused(request: FastifyRequest, reply: FastifyReply, asked: { field: string; problem: string }): Promise<FastifyReply> {
  return renderPage(request, reply, 'approval-refused', { title: 'Request refused', field: asked.field, problem: asked.problem }, 400);
}

/**
 * The approval form may send the browser on to the callback's origin (browsers apply the page's
 * `form-action` to the redirect after a POST too); every other page allows its own origin only.
 */
function allowFormTo(reply: FastifyReply, asked: ApprovalRequest): void {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy !== 'string') return;
  reply.header('content-security-policy', policy.replace("form-action 'self'", `form-action 'self' ${asked.callback.origin}`));
}
