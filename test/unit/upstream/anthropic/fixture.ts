import type { EndpointEntry } from '../../../../src/catalogue/types.js';
import type { PlannedAttempt } from '../../../../src/core/plan.js';
import { heldCeiling } from '../../../../src/core/planner/ceiling.js';
import type { CoreRequest } from '../../../../src/core/request.js';
import { catalogueOf, endpoint, model } from '../../../fixtures/planner/catalogue-yaml.js';

/** A planned attempt at one endpoint of `acme/claude`, declared with `extra` fields. */
export function attemptAt(extra: Record<string, unknown> = {}, plan: Partial<PlannedAttempt> = {}): PlannedAttempt {
  const catalogue = catalogueOf([model('acme/claude', [endpoint('alpha', { upstream_model: 'claude-x', ...extra })])]);
  const claude = catalogue.models.get('acme/claude');
  const served = claude?.endpoints[0] as EndpointEntry;
  if (!claude || !served) throw new Error('fixture catalogue has no endpoint');
  const promptTokens = plan.promptTokens ?? 10;
  return { model: claude, modelId: 'acme/claude', endpoint: served, promptTokens, heldCeiling: heldCeiling(served, plan.ceiling, promptTokens), ...plan };
}

/** A core request with the given members over a one-line user conversation. */
export function coreRequest(members: Partial<CoreRequest> = {}): CoreRequest {
  return {
    models: ['acme/claude'],
    messages: [{ role: 'user', content: 'Hi' }],
    stream: false,
    parameters: {},
    softParameters: {},
    passthrough: {},
    attribution: {},
    ...members,
  };
}
