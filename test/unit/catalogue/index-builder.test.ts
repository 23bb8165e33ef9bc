import { describe, expect, test } from 'vitest';
import { catalogueCounts, endpointIds } from '../../../src/catalogue/index-builder.js';
import { catalogueDocument, endpointDocument, providerDocument, validCatalogue } from '../../fixtures/catalogue/documents.js';

describe('catalogue index', () => {
  test('an endpoint id is provider/model, plus the quantization only when the provider serves the model twice', () => {
    const ids = endpointIds('acme/chat', [
      { provider: { slug: 'a' }, quantization: 'fp8' },
      { provider: { slug: 'b' }, quantization: 'fp8' },
      { provider: { slug: 'b' }, quantization: null },
    ]);
    expect(ids).toEqual(['a/acme/chat', 'b/acme/chat/fp8', 'b/acme/chat/unknown']);
  });

  test('models are indexed with their author, endpoints by id and families by id', () => {
    const document = {
      providers: [providerDocument('alpha'), providerDocument('beta')],
      models: [
        { id: 'acme/one', name: 'One', created: '2025-01-01', family: 'acme', endpoints: [endpointDocument({ provider: 'alpha' })] },
        { id: 'other/two', name: 'Two', created: '2025-01-02', endpoints: [endpointDocument({ provider: 'beta' })] },
        { id: 'acme/three', name: 'Three', created: '2025-01-03', family: 'acme', endpoints: [endpointDocument({ provider: 'beta' })] },
      ],
    };
    const catalogue = validCatalogue(document);
    expect(catalogue.models.get('other/two')?.author).toBe('other');
    expect(catalogue.families.get('acme')).toEqual(['acme/one', 'acme/three']);
    const endpoint = catalogue.endpoints.get('beta/acme/three');
    expect(endpoint?.provider).toBe(catalogue.providers.get('beta'));
    expect(endpoint?.modelId).toBe('acme/three');
    expect(catalogue.models.get('acme/three')?.endpoints[0]).toBe(endpoint);
    expect(catalogueCounts(catalogue)).toEqual({ providers: 2, models: 3, endpoints: 3 });
  });

  test('supported parameters become a set', () => {
    const catalogue = validCatalogue(catalogueDocument([endpointDocument({ supported_parameters: ['tools', 'seed'] })]));
    expect(catalogue.endpoints.get('sim-alpha/acme/chat')?.supportedParameters.has('tools')).toBe(true);
  });
});
