import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { readAudit } from '../../accounts/audit.js';
import { invalidRequest } from '../../core/errors.js';
import { authenticatedKey } from '../auth.js';
import { jsonReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';
import { queryInteger, queryString, refuseUnknownParameters, type RawQuery } from '../query-parameters.js';
import type { Services } from '../services.js';

export const AUDIT_PAGE = { min: 1, max: 100, fallback: 20 } as const;

const AuditQuerySchema = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: AUDIT_PAGE.min, maximum: AUDIT_PAGE.max, description: `Events per page (default ${AUDIT_PAGE.fallback})` })),
  after: Type.Optional(Type.String({ description: 'The `next_cursor` of the previous page: the events older than it' })),
});

const AuditEventSchema = Type.Object({
  id: Type.String({ description: 'Time-ordered: a later event has a greater id' }),
  at: Type.String({ description: 'ISO 8601' }),
  actor: Type.Object({
    kind: Type.Union([Type.Literal('user'), Type.Literal('management_key'), Type.Literal('cli')]),
    id: Type.Union([Type.String(), Type.Null()], { description: 'The person\'s id, or the management key\'s hash; null for the CLI' }),
  }),
  via: Type.Union([Type.Literal('cli'), Type.Literal('api'), Type.Literal('dashboard'), Type.Literal('approval')]),
  action: Type.String({ description: 'Dotted, noun first: `key.create`, `key.update`, `key.revoke`, `limit.set`, `credits.add`, …' }),
  target: Type.Union([Type.String(), Type.Null()], { description: 'The changed record: key hash, workspace, person or account id' }),
  before: Type.Unknown({ description: 'The record\'s public members before the change (null on creation); never a secret' }),
  after: Type.Unknown({ description: 'The same after it (null on deletion)' }),
  address: Type.Union([Type.String(), Type.Null()], { description: 'The client address; null from the CLI' }),
});

const AuditPageSchema = Type.Object({
  data: Type.Array(AuditEventSchema),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `after` for the next (older) page; null on the last page' }),
});

const CURSOR = /^aud_[0-9a-z]{1,40}$/;

/** `GET /audit` (a management key): the account's audit trail, newest first, cursor-paged. */
export function registerAuditRoute(app: FastifyInstance, services: Services): void {
  app.get('/audit', {
    schema: {
      operationId: 'listAuditEvents',
      summary: 'The account\'s audit trail',
      tags: [TAGS.account],
      answers: { success: { 200: jsonReply(AuditPageSchema, 'One page of events, newest first') }, errors: [400], query: AuditQuerySchema },
    },
  }, async (request) => {
    const raw = request.query as RawQuery;
    refuseUnknownParameters(raw, ['limit', 'after']);
    const limit = queryInteger(raw, 'limit', AUDIT_PAGE);
    const after = queryString(raw, 'after');
    if (after !== undefined && !CURSOR.test(after)) throw invalidRequest('after', 'must be the next_cursor of a previous page');
    const page = await readAudit(services.store.db, authenticatedKey(request).accountId, { limit, ...(after !== undefined && { after }) });
    return { data: page.events, next_cursor: page.nextCursor };
  });
}
