import type { Units } from '../../billing/money.js';
import { isZeroRetention } from '../../core/planner/provider-rules.js';
import type { EndpointFigures } from '../../stats/endpoint-figures.js';
import type { EndpointEntry } from '../types.js';
import type { ListedModel } from './listed-model.js';
import type { ModelQuery, PriceBounds } from './model-query.js';
import { datacenterIn } from './regions.js';

/** What a filter may read beyond the model: the time and the measured figures. */
export interface FilterContext {
  now: number;
  figures: EndpointFigures;
}

type Filter = (listed: ListedModel, query: ModelQuery, context: FilterContext) => boolean;

const TOKENS_PER_MILLION = 1_000_000n;
const SECONDS_PER_DAY = 86_400;

/**
 * The filters of `GET /models`, one per concern; an absent filter keeps every model. "Some live
 * endpoint" filters are met by any one endpoint, not necessarily the same one for each filter.
 */
const FILTERS: readonly Filter[] = [
  (listed, { family }) => family === undefined || listed.model.family === family,
  (listed, { q }) => q === undefined || listed.searchText.some((text) => text.includes(q)),
  (listed, { supportedParameters }) => supportedParameters?.every((name) => listed.parameters.has(name)) ?? true,
  (listed, { inputModalities }) => inputModalities?.every((modality) => listed.inputs.has(modality)) ?? true,
  (listed, { outputModalities }) => outputModalities?.every((modality) => listed.outputs.has(modality)) ?? true,
  (listed, { context }) => context === undefined || listed.maxContext >= context,
  (listed, { promptPrice }) => promptPrice === undefined || listed.live.some((endpoint) => withinPerMillion(endpoint, 'prompt', promptPrice)),
  (listed, { completionPrice }) => completionPrice === undefined || listed.live.some((endpoint) => withinPerMillion(endpoint, 'completion', completionPrice)),
  (listed, { providers }) => providers?.some((slug) => listed.providers.has(slug)) ?? true,
  (listed, { modelAuthors }) => modelAuthors?.includes(listed.model.author.toLowerCase()) ?? true,
  (listed, { zdr }) => zdr !== true || listed.live.some(isZeroRetention),
  (listed, { regions }) => regions?.some((region) => [...listed.datacenters].some((datacenter) => datacenterIn(datacenter, region))) ?? true,
  (listed, { ageDays }, { now }) => ageDays === undefined || within(Math.floor((now / 1000 - listed.model.created) / SECONDS_PER_DAY), ageDays),
  (listed, { toolSuccessRate }, { figures }) => toolSuccessRate === undefined
    || listed.live.some((endpoint) => within(figures.figuresOf(endpoint.id).toolCallSuccess1d.value, toolSuccessRate)),
];

/** The models every present filter keeps, in the order given. */
export function filterModels(models: readonly ListedModel[], query: ModelQuery, context: FilterContext): ListedModel[] {
  return models.filter((listed) => FILTERS.every((filter) => filter(listed, query, context)));
}

/** The endpoint's declared per-token price, per million tokens, inside the bounds; an undeclared price is inside none. */
export function withinPerMillion(endpoint: EndpointEntry, key: 'prompt' | 'completion', bounds: PriceBounds): boolean {
  const units = endpoint.pricing.prices[key]?.units;
  if (units === undefined) return false;
  return within(units * TOKENS_PER_MILLION, bounds);
}

/** Inclusive bounds; a null value (a figure not yet gated) is inside none. */
function within<T extends number | Units>(value: T | null, bounds: { min?: T; max?: T }): boolean {
  if (value === null) return false;
  return (bounds.min === undefined || value >= bounds.min) && (bounds.max === undefined || value <= bounds.max);
}
