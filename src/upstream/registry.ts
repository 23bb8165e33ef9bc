import type { UpstreamApi } from '../catalogue/types.js';
import type { UpstreamAdapter } from './types.js';
import { anthropicAdapter } from './anthropic/adapter.js';
import { openAiAdapter } from './openai/adapter.js';

const ADAPTERS: Partial<Record<UpstreamApi, UpstreamAdapter>> = {
  openai: openAiAdapter,
  anthropic: anthropicAdapter,
};

/** The adapter for a provider's wire format, or undefined when this build has none. */
export function adapterFor(api: UpstreamApi): UpstreamAdapter | undefined {
  return ADAPTERS[api];
}
