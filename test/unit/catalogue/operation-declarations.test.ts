import { describe, expect, test } from 'vitest';
import { validateCatalogue } from '../../../src/catalogue/catalogue-schema.js';
import { catalogueDocument, endpointDocument, providerDocument, validCatalogue } from '../../fixtures/catalogue/documents.js';

const at = 'models[0].endpoints[0]';

function problemsOf(document: Record<string, unknown>): string[] {
  const result = validateCatalogue(document, 0);
  return result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
}

function embeddingsEndpoint(extra: Record<string, unknown>): Record<string, unknown> {
  return endpointDocument({ output_modalities: ['embeddings'], ...extra });
}

describe('operation declarations of an endpoint', () => {
  test('supported_dimensions is read on an embeddings endpoint; absent is null', () => {
    const catalogue = validCatalogue(catalogueDocument([embeddingsEndpoint({ supported_dimensions: [256, 1024] })]));
    expect(catalogue.endpoints.get('sim-alpha/acme/chat')?.supportedDimensions).toEqual([256, 1024]);
    const plain = validCatalogue(catalogueDocument([embeddingsEndpoint({})]));
    expect(plain.endpoints.get('sim-alpha/acme/chat')?.supportedDimensions).toBeNull();
  });

  test('bad widths are reported with their paths', () => {
    expect(problemsOf(catalogueDocument([embeddingsEndpoint({ supported_dimensions: [0, 'wide', 8, 8] })]))).toEqual([
      `${at}.supported_dimensions[0]: must be a positive integer`,
      `${at}.supported_dimensions[1]: must be a positive integer`,
      `${at}.supported_dimensions[3]: duplicate 8`,
    ]);
    expect(problemsOf(catalogueDocument([embeddingsEndpoint({ supported_dimensions: [] })]))).toEqual([
      `${at}.supported_dimensions: must name at least one width`,
    ]);
  });

  test('supported_dimensions on an endpoint that does not output embeddings is a problem', () => {
    expect(problemsOf(catalogueDocument([endpointDocument({ supported_dimensions: [8] })]))).toEqual([
      `${at}.supported_dimensions: only for endpoints whose output_modalities include embeddings`,
    ]);
  });

  test('an operation the provider wire format cannot carry is a problem naming output_modalities', () => {
    const document = catalogueDocument([endpointDocument({ output_modalities: ['embeddings'] })]);
    document.providers = [{ ...providerDocument(), api: 'cohere' }];
    expect(problemsOf(document)).toEqual([
      `${at}.output_modalities: the cohere wire of provider "sim-alpha" serves only rerank (not embeddings)`,
    ]);
    const anthropic = catalogueDocument([endpointDocument({ output_modalities: ['text', 'rerank'] })]);
    anthropic.providers = [{ ...providerDocument(), api: 'anthropic' }];
    expect(problemsOf(anthropic)).toEqual([
      `${at}.output_modalities: rerank is not served over the anthropic wire format of provider "sim-alpha" (use openai or cohere)`,
    ]);
    const cohereChat = catalogueDocument([endpointDocument({})]);
    cohereChat.providers = [{ ...providerDocument(), api: 'cohere' }];
    expect(problemsOf(cohereChat)).toEqual([`${at}.output_modalities: the cohere wire of provider "sim-alpha" serves only rerank (not text)`]);
    const rerank = catalogueDocument([endpointDocument({ output_modalities: ['rerank'] })]);
    rerank.providers = [{ ...providerDocument(), api: 'cohere' }];
    expect(problemsOf(rerank)).toEqual([]);
  });
});
