import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { readAccountOverview } from '../../accounts/account-overview.js';
import { toUsdNumber } from '../../billing/money.js';
import { GatewayError } from '../../core/errors.js';
import { authenticatedKey } from '../auth.js';
import { dataReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';
import { refuseUnknownParameters } from '../query-parameters.js';
import type { Services } from '../services.js';

const CreditsSchema = Type.Object({
  total_credits: Type.Number({ minimum: 0, description: 'USD: every deposit ever made to the account' }),
  total_usage: Type.Number({ minimum: 0, description: 'USD: everything the account was ever charged' }),
});

/**
 * `GET /credits` (an inference key of the account; management keys are refused, spec 02
 * Authentication 5): what was ever deposited and what was ever charged. The balance is the first less
 * the second.
 */
export function registerCreditsRoute(app: FastifyInstance, services: Services): void {
  app.get('/credits', {
    schema: {
      operationId: 'getCredits',
      summary: 'Total credits and total usage of the account',
      tags: [TAGS.account],
      answers: { success: { 200: dataReply(CreditsSchema, 'Deposits and charges, in USD') }, errors: [400] },
    },
  }, async (request) => {
    refuseUnknownParameters(request.query as Record<string, unknown>, []);
    const overview = await readAccountOverview(services.store, authenticatedKey(request).accountId);
    if (!overview) throw new GatewayError('server', 'the key\'s account could not be read');
    return { data: { total_credits: toUsdNumber(overview.totalCredits), total_usage: toUsdNumber(overview.totalUsage) } };
  });
}
