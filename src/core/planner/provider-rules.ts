import { exceededCeiling, isFreeEndpoint } from '../../billing/price-ceiling.js';
import type { EndpointEntry } from '../../catalogue/types.js';
import type { EligibilityRule } from './eligibility-rule.js';

/** The names a preference list may use for an endpoint: its provider slug, or slug/quantization. */
export function endpointTags(endpoint: EndpointEntry): string[] {
  const slug = endpoint.provider.slug;
  return [slug, `${slug}/${endpoint.quantization ?? 'unknown'}`];
}

const onlyListed: EligibilityRule = ({ endpoint, preferences }) =>
  preferences.only && !endpointTags(endpoint).some((tag) => preferences.only?.includes(tag))
    ? 'provider not in provider.only'
    : null;

const notIgnored: EligibilityRule = ({ endpoint, preferences }) =>
  preferences.ignore && endpointTags(endpoint).some((tag) => preferences.ignore?.includes(tag))
    ? 'provider in provider.ignore'
    : null;

const quantization: EligibilityRule = ({ endpoint, preferences }) =>
  preferences.quantizations && !preferences.quantizations.includes(endpoint.quantization ?? 'unknown')
    ? `quantization ${endpoint.quantization ?? 'unknown'} not in provider.quantizations`
    : null;

const dataCollection: EligibilityRule = ({ endpoint, preferences }) =>
  preferences.dataCollection === 'deny' && endpoint.provider.dataPolicy.training
    ? 'provider trains on request data (provider.data_collection is deny)'
    : null;

/** The zero-retention rule: an endpoint whose provider keeps no request data. */
export function isZeroRetention(endpoint: EndpointEntry): boolean {
  return endpoint.provider.compliance.zdr;
}

const zeroRetention: EligibilityRule = ({ endpoint, preferences }) =>
  preferences.zdr === true && !isZeroRetention(endpoint) ? 'provider is not zero-data-retention (provider.zdr)' : null;

const freeVariant: EligibilityRule = ({ endpoint, variant }) =>
  variant === 'free' && !isFreeEndpoint(endpoint.pricing) ? 'not free (:free asks for zero-priced endpoints)' : null;

const priceCeiling: EligibilityRule = ({ endpoint, preferences }) => {
  if (!preferences.maxPrice) return null;
  const exceeded = exceededCeiling(endpoint.pricing, preferences.maxPrice);
  return exceeded ? `${exceeded} price above provider.max_price.${exceeded}` : null;
};

export const PROVIDER_RULES: readonly EligibilityRule[] = [
  onlyListed,
  notIgnored,
  quantization,
  dataCollection,
  zeroRetention,
  freeVariant,
  priceCeiling,
];
