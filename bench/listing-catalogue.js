/**
 * A generated catalogue for the listing benchmark: `models` models, each served by every one of
 * three providers (so models × 3 endpoints), with prices, windows, parameters and release dates
 * that differ from model to model. Nothing is ever sent to the providers' base URL.
 */
import { stringify } from 'yaml';

const PROVIDERS = ['north', 'south', 'east'];
const PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'tools', 'tool_choice', 'response_format', 'reasoning'];

/** @param {number} models */
export function listingCatalogueYaml(models) {
  const providers = PROVIDERS.map((slug, index) => ({
    slug,
    name: `Provider ${slug}`,
    api: 'openai',
    base_url: 'http://127.0.0.1:9/v1',
    data_policy: { training: index === 2, retention_days: index === 2 ? 30 : 0 },
    compliance: { zdr: index !== 2, hipaa: false },
    datacenters: [['US', 'DE', 'JP'][index]],
  }));
  const entries = Array.from({ length: models }, (_, number) => ({
    id: `author-${number % 40}/model-${number}`,
    name: `Author ${number % 40}: Model ${number}`,
    created: 1_700_000_000 + number * 3_600,
    family: `family-${number % 100}`,
    description: `Generated model ${number} for the listing benchmark.`,
    tags: ['bench'],
    endpoints: PROVIDERS.map((provider, index) => ({
      provider,
      upstream_model: `model-${number}`,
      context_length: 8_192 * (1 + ((number + index) % 16)),
      max_completion_tokens: 4_096,
      tokenizer: 'Llama3',
      supported_parameters: PARAMETERS.slice(0, 4 + ((number + index) % 6)),
      pricing: { prompt: `0.000000${1 + ((number * 7 + index) % 9)}`, completion: `0.00000${1 + ((number * 3 + index) % 9)}` },
    })),
  }));
  return stringify({ providers, models: entries });
}
