import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createKey } from '../../accounts/accounts.js';
import type { ChangeContext } from '../../accounts/audit.js';
import { issueAuthCode, redeemAuthCode, verifierProblem, isS256Challenge, type CodeApprover } from '../../accounts/auth-codes.js';
import { formatUsd, parseUsd, type Units } from '../../billing/money.js';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import { readCallback } from '../../accounts/callback-url.js';
import { authenticatedKey } from '../auth.js';
import { BODY_REFUSALS } from '../openapi/error-replies.js';
import { jsonReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';
import type { Services } from '../services.js';

const ExchangeBodySchema = Type.Object({
  code: Type.String({ description: 'The one-time code the approval gave the application' }),
  code_verifier: Type.String({ description: 'The verifier whose S256 challenge the code was issued for (43 to 128 characters of A-Z a-z 0-9 - . _ ~)' }),
  code_challenge_method: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: '`S256`, the only method (absent or null means S256)' })),
});

const ExchangeReplySchema = Type.Object({
  key: Type.String({ description: 'The new inference key, shown once' }),
  user_id: Type.Union([Type.String(), Type.Null()], { description: 'The person who approved; null when a management key issued the code' }),
});

const CodeBodySchema = Type.Object({
  callback_url: Type.String({ description: 'The application\'s callback: https, or http on a loopback host' }),
  code_challenge: Type.Optional(Type.String({ description: 'S256 challenge of the application\'s verifier (required)' })),
  code_challenge_method: Type.Optional(Type.String({ description: '`S256` (the only method)' })),
  limit: Type.Optional(Type.Number({ description: 'Spend limit of the key, USD' })),
  workspace_id: Type.Optional(Type.String({ description: 'Workspace of the key (default: the management key\'s own)' })),
  expires_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  key_label: Type.Optional(Type.String()),
  usage_limit_type: Type.Optional(Type.String()),
});

const CodeReplySchema = Type.Object({
  data: Type.Object({
    id: Type.String({ description: 'The one-time code, valid for ten minutes' }),
    app_id: Type.Integer({ description: 'Always 0: this gateway keeps no registry of applications' }),
    created_at: Type.String({ description: 'ISO 8601' }),
  }),
});

/** The one answer for every code that cannot be exchanged, so none can be told from another. */
export const CODE_REFUSAL = 'code: unknown, expired or already used, or code_verifier does not match its challenge';

/**
 * `POST /auth/keys` (public: no key, the address limit): exchanges an approval code and its PKCE
 * verifier for a new inference key named after the callback's origin, carrying the approved limit.
 */
export function registerAuthKeysRoute(app: FastifyInstance, services: Services): void {
  app.post<{ Body: Static<typeof ExchangeBodySchema> }>('/auth/keys', {
    schema: {
      operationId: 'exchangeAuthCode',
      summary: 'Exchange an approval code and its verifier for a key',
      tags: [TAGS.approval],
      body: ExchangeBodySchema,
      answers: { success: { 200: jsonReply(ExchangeReplySchema, 'The new key (shown once) and the approving person') }, errors: BODY_REFUSALS },
    },
  }, async (request) => {
    const { code, code_verifier: verifier, code_challenge_method: method } = request.body;
    if (method !== undefined && method !== null && method !== 'S256') throw invalidRequest('code_challenge_method', 'must be S256');
    const problem = verifierProblem(verifier);
    if (problem) throw invalidRequest('code_verifier', problem);
    const grant = await redeemAuthCode(services.store, code, verifier);
    if (!grant) throw new GatewayError('invalid_request', CODE_REFUSAL, { metadata: { field: 'code' } });
    const issued = await createKey(services.store, {
      accountId: grant.accountId,
      workspaceId: grant.workspaceId,
      name: grant.callbackOrigin,
      origin: grant.callbackOrigin,
      ...(grant.limit !== null && { limitUsd: formatUsd(grant.limit) }),
      ...(grant.approver.kind === 'user' && { creatorUserId: grant.approver.userId }),
    }, approvalContext(grant.approver, request));
    return { key: issued.key, user_id: grant.approver.kind === 'user' ? grant.approver.userId : null };
  });
}

/**
 * `POST /auth/keys/code` (a management key): the approval without a browser. A management key
 * issues a one-time code bound to its S256 challenge, a callback origin, a limit and a workspace of
 * its account; whoever holds the verifier exchanges it at `POST /auth/keys` for an inference key,
 * exactly as after an approval on the page. Expiry, label and limit windows of the key are not
 * carried by codes: asking for them is refused, naming the field.
 */
export function registerAuthKeysCodeRoute(app: FastifyInstance, services: Services): void {
  app.post<{ Body: Static<typeof CodeBodySchema> }>('/auth/keys/code', {
    schema: {
      operationId: 'createAuthCode',
      summary: 'Issue an approval code with a management key',
      tags: [TAGS.approval],
      body: CodeBodySchema,
      answers: { success: { 200: jsonReply(CodeReplySchema, 'The one-time code') }, errors: BODY_REFUSALS },
    },
  }, async (request) => {
    const key = authenticatedKey(request);
    const body = request.body;
    for (const field of ['expires_at', 'key_label', 'usage_limit_type'] as const) {
      if (body[field] !== undefined && body[field] !== null) throw invalidRequest(field, 'not supported: the key is named after the callback origin and carries a limit without a window or expiry');
    }
    const callback = readCallback(body.callback_url);
    if ('problem' in callback) throw invalidRequest('callback_url', callback.problem);
    if (body.code_challenge_method !== undefined && body.code_challenge_method !== 'S256') throw invalidRequest('code_challenge_method', 'must be S256');
    if (body.code_challenge === undefined || !isS256Challenge(body.code_challenge)) {
      throw invalidRequest('code_challenge', 'must be the base64url SHA-256 of the verifier (43 characters)');
    }
    const limit = body.limit === undefined ? null : limitUnits(body.limit);
    const workspaceId = body.workspace_id ?? key.workspaceId;
    const workspace = await services.store.db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).where('account_id', '=', key.accountId).executeTakeFirst();
    if (!workspace) throw invalidRequest('workspace_id', 'no such workspace in the account');
    const at = new Date();
    const { code } = await issueAuthCode(services.store, {
      accountId: key.accountId,
      approver: { kind: 'management_key', keyHash: key.hash },
      workspaceId,
      callbackOrigin: callback.origin,
      limit,
    }, body.code_challenge, at);
    return { data: { id: code, app_id: 0, created_at: at.toISOString() } };
  });
}

function approvalContext(approver: CodeApprover, request: FastifyRequest): ChangeContext {
  return {
    actor: approver.kind === 'user' ? { kind: 'user', userId: approver.userId } : { kind: 'management_key', keyHash: approver.keyHash },
    via: 'approval',
    address: request.ip,
  };
}

/** A JSON number of USD as exact units, through its shortest decimal form (never float arithmetic). */
function limitUnits(limit: number): Units {
  if (!Number.isFinite(limit) || limit < 0) throw invalidRequest('limit', 'must be a finite number of USD, zero or more');
  try {
    return parseUsd(plainDecimal(limit));
  } catch {
    throw invalidRequest('limit', 'has more decimal places than 10^-24 USD');
  }
}

/** `1e-7` → `0.0000001`, `1.5e+21` → `1500000000000000000000`: the shortest form without an exponent. */
function plainDecimal(value: number): string {
  const text = String(value);
  const match = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}
