import type { EndpointEntry, ParameterDescriptor } from '../../catalogue/types.js';
import { invalidRequest } from '../errors.js';
import type { ProviderPreferences } from '../request.js';

/**
 * The `provider.options` entry of the endpoint's provider (rule 9), checked against the endpoint's
 * passthrough descriptors: an undeclared name or a value outside its descriptor is a 400 naming it.
 * Entries of other providers are not read.
 */
export function providerOptionsFor(endpoint: EndpointEntry, preferences: ProviderPreferences): Record<string, unknown> | undefined {
  const slug = endpoint.provider.slug;
  const entry = preferences.options?.[slug];
  if (!entry) return undefined;
  for (const [name, value] of Object.entries(entry)) {
    const field = `provider.options.${slug}.${name}`;
    const descriptor = endpoint.passthrough.get(name);
    if (!descriptor) throw invalidRequest(field, `${endpoint.id} declares no passthrough parameter ${name}`);
    const problem = descriptorProblem(descriptor, value);
    if (problem) throw invalidRequest(field, problem);
  }
  return entry;
}

function descriptorProblem(descriptor: ParameterDescriptor, value: unknown): string | null {
  if (!hasType(descriptor.type, value)) return `must be ${descriptor.type === 'integer' ? 'an integer' : `a ${descriptor.type}`}`;
  if (descriptor.enum && !descriptor.enum.includes(value as string | number)) {
    return `must be one of ${descriptor.enum.map((option) => JSON.stringify(option)).join(', ')}`;
  }
  if (typeof value === 'number') {
    if (descriptor.minimum !== undefined && value < descriptor.minimum) return `must be >= ${descriptor.minimum}`;
    if (descriptor.maximum !== undefined && value > descriptor.maximum) return `must be <= ${descriptor.maximum}`;
  }
  return null;
}

function hasType(type: ParameterDescriptor['type'], value: unknown): boolean {
  switch (type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
  }
}
