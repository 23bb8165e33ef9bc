import type { Catalogue } from '../../../../src/catalogue/types.js';
import { endpointDocument, providerDocument, validCatalogue } from '../../../fixtures/catalogue/documents.js';

/**
 * A catalogue with a spread the listing tests need: three providers (one keeping data, one in
 * Germany), models of two authors and one family, prices that differ per endpoint, a reasoning
 * model, an embeddings model, a speech model and a model whose only endpoint is disabled.
 */
export function listingCatalogue(): Catalogue {
  return validCatalogue({
    providers: [
      providerDocument('alpha'),
      { ...providerDocument('beta'), compliance: { zdr: false, hipaa: false }, datacenters: ['DE'] },
      { ...providerDocument('gamma'), datacenters: ['JP'] },
    ],
    models: [
      {
        id: 'acme/chat', name: 'Acme: Chat', created: '2025-06-01', family: { id: 'acme-chat', name: 'Acme Chat' },
        description: 'Chat.',
        endpoints: [
          endpointDocument({ provider: 'beta', tokenizer: 'Llama3', context_length: 131072, supported_parameters: ['max_tokens', 'tools'], pricing: { prompt: '0.000002', completion: '0.000004' } }),
          endpointDocument({ provider: 'alpha', tokenizer: 'GPT', context_length: 8192, supported_parameters: ['max_tokens', 'temperature'], pricing: { prompt: '0.0000005', completion: '0.0000015' } }),
        ],
      },
      {
        id: 'acme/thinker', name: 'Acme: Thinker', created: '2025-08-01', family: 'acme-chat',
        endpoints: [endpointDocument({ provider: 'beta', context_length: 32768, supported_parameters: ['reasoning'], reasoning: { supported_efforts: ['high', 'low'], mandatory: true }, pricing: { prompt: '0.00001', completion: '0.00003' } })],
      },
      {
        id: 'other/embed', name: 'Other: Embed', created: '2025-07-01',
        endpoints: [endpointDocument({ provider: 'gamma', output_modalities: ['embeddings'], supported_dimensions: [64, 128], supported_parameters: [], pricing: { prompt: '0.00000002' } })],
      },
      {
        id: 'other/voice', name: 'Other: Voice', created: '2024-01-01',
        endpoints: [endpointDocument({
          provider: 'alpha', output_modalities: ['speech'], supported_parameters: [], supported_languages: ['en', 'pt-BR'],
          speech_envelope: { voices: ['alloy', 'verse'], codecs: ['mp3'] }, pricing: { character: '0.000015' },
        })],
      },
      {
        id: 'other/retired', name: 'Other: Retired', created: '2025-09-01',
        endpoints: [endpointDocument({ provider: 'alpha', disabled: true })],
      },
    ].map((model) => JSON.parse(JSON.stringify(model)) as unknown),
  });
}
