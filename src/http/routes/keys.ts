import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createKey, revokeKey } from '../../accounts/accounts.js';
import type { ChangeContext } from '../../accounts/audit.js';
import { checkedKeyName, findKey, listKeys, updateKey, type ManagedKey } from '../../accounts/key-management.js';
import { resolveWorkspace } from '../../accounts/key-writer.js';
import { CreateKeyBodySchema, KeyHashParamsSchema, KeyRecordSchema, UpdateKeyBodySchema } from '../../accounts/key-record-schema.js';
import type { KeyContext } from '../../accounts/types.js';
import { formatUsd } from '../../billing/money.js';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import type { Store } from '../../store/store.js';
import { authenticatedKey } from '../auth.js';
import { BODY_REFUSALS } from '../openapi/error-replies.js';
import { dataReply, jsonReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';
import { queryBoolean, queryInteger, queryString, refuseUnknownParameters } from '../query-parameters.js';
import type { Services } from '../services.js';
import { keyRecord } from './key-record.js';
import { changedLimit, isKeyHash, readFutureInstant, readLimit } from './key-input.js';

/** Keys per page of `GET /keys`. */
export const KEY_LIST_PAGE = 100;

const ListQuerySchema = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, description: 'Keys to skip, newest first' })),
  include_disabled: Type.Optional(Type.Boolean({ description: 'List disabled keys too (default false)' })),
  workspace_id: Type.Optional(Type.String({ description: 'Only the keys of this workspace' })),
});

const CreatedKeySchema = Type.Object({
  data: KeyRecordSchema,
  key: Type.String({ description: 'The new key, shown once: only its hash is stored' }),
});

type CreateBody = Static<typeof CreateKeyBodySchema>;
type UpdateBody = Static<typeof UpdateKeyBodySchema>;
type HashParams = Static<typeof KeyHashParamsSchema>;

/**
 * The key management API (management scope): the account's inference keys listed, created, read,
 * changed and deleted (revoked). Management keys are neither listed nor changed here; another
 * account's hash, an unknown or malformed one and a deleted key are one 404. Every change is audited
 * under the management key's hash.
 */
export function registerKeysRoutes(app: FastifyInstance, services: Services): void {
  const { store } = services;
  app.get('/keys', {
    schema: {
      operationId: 'listKeys',
      summary: 'List the account\'s inference keys',
      tags: [TAGS.keys],
      answers: { success: { 200: dataReply(Type.Array(KeyRecordSchema), `The inference keys, newest first, ${KEY_LIST_PAGE} a page`) }, errors: [400], query: ListQuerySchema },
    },
  }, async (request) => {
    const key = authenticatedKey(request);
    const raw = request.query as Record<string, unknown>;
    refuseUnknownParameters(raw, ['offset', 'include_disabled', 'workspace_id']);
    const offset = queryInteger(raw, 'offset', { min: 0, max: 1_000_000_000, fallback: 0 });
    const includeDisabled = queryBoolean(raw, 'include_disabled', false);
    const workspaceId = queryString(raw, 'workspace_id');
    const keys = await listKeys(store, key.accountId, { offset, limit: KEY_LIST_PAGE, includeDisabled, ...(workspaceId !== undefined && { workspaceId }) });
    return { data: keys.map(keyRecord) };
  });

  app.post<{ Body: CreateBody }>('/keys', {
    schema: {
      operationId: 'createKey',
      summary: 'Create an inference key',
      tags: [TAGS.keys],
      body: CreateKeyBodySchema,
      answers: { success: { 201: jsonReply(CreatedKeySchema, 'The new key\'s record, and the key itself (shown once)') }, errors: BODY_REFUSALS },
    },
  }, async (request, reply) => {
    const key = authenticatedKey(request);
    const created = await createKey(store, await keyRequest(store, key, request.body), managementChange(request, key));
    const record = await findKey(store, key.accountId, created.hash);
    if (!record) throw new GatewayError('server', 'the created key could not be read back');
    return reply.code(201).send({ data: keyRecord(record), key: created.key });
  });

  app.get<{ Params: HashParams }>('/keys/:hash', {
    schema: {
      operationId: 'getKeyByHash',
      summary: 'Read an inference key',
      tags: [TAGS.keys],
      answers: { success: { 200: dataReply(KeyRecordSchema, 'The key\'s record') }, errors: [404], params: KeyHashParamsSchema },
    },
  }, async (request) => {
    const key = authenticatedKey(request);
    return { data: keyRecord(await managedInferenceKey(store, key, request.params.hash)) };
  });

  app.patch<{ Params: HashParams; Body: UpdateBody }>('/keys/:hash', {
    schema: {
      operationId: 'updateKey',
      summary: 'Rename, disable or enable an inference key, or change its limit',
      tags: [TAGS.keys],
      body: UpdateKeyBodySchema,
      answers: { success: { 200: dataReply(KeyRecordSchema, 'The key\'s record as it now stands') }, errors: [...BODY_REFUSALS, 404], params: KeyHashParamsSchema },
    },
  }, async (request) => {
    const key = authenticatedKey(request);
    const current = await managedInferenceKey(store, key, request.params.hash);
    const { name, disabled } = request.body;
    const limit = changedLimit(current.limit, request.body);
    const patch = {
      ...(name !== undefined && { name: refusedAsField(() => checkedKeyName(name)) }),
      ...(disabled !== undefined && { disabled }),
      ...(limit !== undefined && { limit }),
    };
    if (Object.keys(patch).length === 0) return { data: keyRecord(current) };
    const updated = await updateKey(store, key.accountId, current.hash, patch, managementChange(request, key));
    if (!updated) throw noSuchKey();
    return { data: keyRecord(updated) };
  });

  app.delete<{ Params: HashParams }>('/keys/:hash', {
    schema: {
      operationId: 'deleteKey',
      summary: 'Delete (revoke) an inference key',
      tags: [TAGS.keys],
      answers: { success: { 200: jsonReply(Type.Object({ deleted: Type.Literal(true) }), 'The key is revoked: it authenticates nothing from now on') }, errors: [404], params: KeyHashParamsSchema },
    },
  }, async (request) => {
    const key = authenticatedKey(request);
    const current = await managedInferenceKey(store, key, request.params.hash);
    if (!(await revokeKey(store, { accountId: key.accountId, hash: current.hash }, managementChange(request, key)))) throw noSuchKey();
    return { deleted: true as const };
  });
}

/** Who changes keys through this API: the management key, by its hash, from the request's address. */
function managementChange(request: FastifyRequest, key: KeyContext): ChangeContext {
  return { actor: { kind: 'management_key', keyHash: key.hash }, via: 'api', address: request.ip };
}

/** A live inference key of the calling account; anything else (malformed, unknown, another account's, a management key) is one 404. */
async function managedInferenceKey(store: Store, key: KeyContext, hash: string): Promise<ManagedKey> {
  const found = isKeyHash(hash) ? await findKey(store, key.accountId, hash) : null;
  if (!found || found.management) throw noSuchKey();
  return found;
}

function noSuchKey(): GatewayError {
  return new GatewayError('not_found', 'No such key');
}

/** The request `createKey` takes, every member checked; a problem is a 400 naming its field. */
async function keyRequest(store: Store, key: KeyContext, body: CreateBody): Promise<Parameters<typeof createKey>[1]> {
  const name = refusedAsField(() => checkedKeyName(body.name));
  const limit = body.limit === undefined || body.limit === null ? null : readLimit(body.limit);
  const reset = body.limit_reset ?? null;
  if (reset !== null && limit === null) throw invalidRequest('limit_reset', 'needs a limit');
  const expiresAt = body.expires_at === undefined || body.expires_at === null ? null : readFutureInstant(body.expires_at, new Date());
  // as the SDK documents it: without workspace_id, the account's default (first) workspace
  const workspaceId = body.workspace_id ?? (await resolveWorkspace(store.db, key.accountId));
  const workspace = await store.db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).where('account_id', '=', key.accountId).executeTakeFirst();
  if (!workspace) throw invalidRequest('workspace_id', 'no such workspace in the account');
  const creator = body.creator_user_id ?? null;
  if (creator !== null) {
    const user = await store.db.selectFrom('users').select('id').where('id', '=', creator).where('account_id', '=', key.accountId).executeTakeFirst();
    if (!user) throw invalidRequest('creator_user_id', 'no such person in the account');
  }
  return {
    accountId: key.accountId,
    workspaceId,
    name,
    ...(limit !== null && { limitUsd: formatUsd(limit) }),
    ...(reset !== null && { limitReset: reset }),
    ...(expiresAt !== null && { expiresAt }),
    ...(creator !== null && { creatorUserId: creator }),
  };
}

/** Runs a check of src/accounts/ whose RangeError message starts with the field's name, as a 400 naming it. */
function refusedAsField<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const [field = 'body', ...problem] = error.message.split(' ');
    throw invalidRequest(field, problem.join(' '));
  }
}
