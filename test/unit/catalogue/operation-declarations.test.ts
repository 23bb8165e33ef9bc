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

  test('a transcription endpoint over an openai wire, taking audio, loads', () => {
    const catalogue = validCatalogue(catalogueDocument([transcriptionEndpoint({})]));
    const entry = catalogue.endpoints.get('sim-alpha/acme/chat');
    expect(entry?.outputModalities).toEqual(['transcription']);
    expect(entry?.inputModalities).toEqual(['audio']);
    expect(entry?.inputContainers.audio).toEqual(['wav', 'mp3']);
    expect(entry?.listing.supportedLanguages).toEqual(['en', 'pt-BR']);
  });

  test('transcription over a wire other than openai is a problem naming output_modalities', () => {
    const anthropic = catalogueDocument([transcriptionEndpoint({})]);
    anthropic.providers = [{ ...providerDocument(), api: 'anthropic' }];
    expect(problemsOf(anthropic)).toEqual([
      `${at}.output_modalities: transcription is not served over the anthropic wire format of provider "sim-alpha" (use openai)`,
    ]);
    const cohere = catalogueDocument([transcriptionEndpoint({})]);
    cohere.providers = [{ ...providerDocument(), api: 'cohere' }];
    expect(problemsOf(cohere)).toEqual([`${at}.output_modalities: the cohere wire of provider "sim-alpha" serves only rerank (not transcription)`]);
  });

  test('a transcription endpoint without audio among its input_modalities is a problem naming input_modalities', () => {
    expect(problemsOf(catalogueDocument([transcriptionEndpoint({ input_modalities: ['text'], input_containers: undefined })]))).toEqual([
      `${at}.input_modalities: a transcription endpoint takes audio: list audio among input_modalities`,
    ]);
    expect(problemsOf(catalogueDocument([transcriptionEndpoint({ input_modalities: undefined, input_containers: undefined })]))).toEqual([
      `${at}.input_modalities: a transcription endpoint takes audio: list audio among input_modalities`,
    ]);
  });
});

function transcriptionEndpoint(extra: Record<string, unknown>): Record<string, unknown> {
  const document = endpointDocument({
    input_modalities: ['audio'],
    output_modalities: ['transcription'],
    input_containers: { audio: ['wav', 'mp3'] },
    supported_parameters: ['timestamp_granularities'],
    supported_languages: ['en', 'pt-BR'],
    pricing: { audio_second: '0.0001' },
    ...extra,
  });
  for (const key of Object.keys(document)) if (document[key] === undefined) delete document[key];
  return document;
}
