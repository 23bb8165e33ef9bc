import { describe, expect, test } from 'vitest';
import { validateCatalogue } from '../../../src/catalogue/catalogue-schema.js';
import { catalogueDocument, endpointDocument, providerDocument } from '../../fixtures/catalogue/documents.js';

function problemsOf(document: unknown): string[] {
  const result = validateCatalogue(document, 0);
  return result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
}

function withModel(extra: Record<string, unknown>): Record<string, unknown> {
  const document = catalogueDocument();
  const [model] = document.models as Record<string, unknown>[];
  document.models = [{ ...model, ...extra }];
  return document;
}

describe('what the listing reads from the catalogue file', () => {
  test('endpoint listing facts report problems by path', () => {
    const document = catalogueDocument([endpointDocument({
      max_prompt_tokens: 9000,
      supported_languages: ['English'],
      image_envelope: { sizes: ['1024'], formats: ['bmp'] },
      mesh_envelope: { max_faces: 10, min_faces: 20 },
      benchmarks: [{ dataset: 'mmlu', score: 'high' }],
      capacity: { current: 9, total: 8, updated_at: 'yesterday' },
    })]);
    expect(problemsOf(document)).toEqual([
      'models[0].endpoints[0].max_prompt_tokens: must not exceed context_length (8192)',
      'models[0].endpoints[0].supported_languages[0]: must be a language tag such as en or pt-BR',
      'models[0].endpoints[0].image_envelope: only for endpoints whose output_modalities include image',
      'models[0].endpoints[0].image_envelope.sizes[0]: must be WIDTHxHEIGHT in pixels',
      'models[0].endpoints[0].image_envelope.formats[0]: must be one of png, jpeg, webp, gif',
      'models[0].endpoints[0].mesh_envelope: only for endpoints whose output_modalities include mesh',
      'models[0].endpoints[0].mesh_envelope.min_faces: must not exceed max_faces (10)',
      'models[0].endpoints[0].benchmarks[0].score: must be a number',
      'models[0].endpoints[0].capacity.current: must not exceed total (8)',
      'models[0].endpoints[0].capacity.updated_at: must be an ISO 8601 instant with its offset',
    ]);
  });

  test('render parameters are descriptors by rendered output and name', () => {
    const painter = (render_parameters: unknown) => catalogueDocument([endpointDocument({ output_modalities: ['text', 'image'], render_parameters })]);
    const result = validateCatalogue(painter({ image: { steps: { type: 'integer', minimum: 1, maximum: 50 }, style: { type: 'string', enum: ['photo', 'sketch'] } } }), 0);
    expect(result.ok && result.catalogue.endpoints.get('sim-alpha/acme/chat')?.listing.renderParameters).toEqual({
      image: { steps: { type: 'integer', minimum: 1, maximum: 50 }, style: { type: 'string', enum: ['photo', 'sketch'] } },
    });
    expect(problemsOf(painter({ text: {}, image: { steps: { type: 'integer', minimum: 'one' } } }))).toEqual([
      'models[0].endpoints[0].render_parameters.text: must be a rendered output of the endpoint (image)',
      'models[0].endpoints[0].render_parameters.image.steps.minimum: must be an integer',
    ]);
  });

  test('model facts report problems by path', () => {
    expect(problemsOf(withModel({
      author: 'Acme Labs',
      hub_id: 'acme/chat-7b',
      hub: { id: 'acme/chat-8b', read_at: 'soon', likes: -1, colour: 'red' },
      default_parameters: { temperature: 3, top_k: 1.5, seed: 1 },
      family: { id: 'acme-chat' },
    }))).toEqual([
      'models[0].family.name: required',
      'models[0].hub.colour: unknown field',
      'models[0].hub.read_at: must be a date or an ISO 8601 instant',
      'models[0].hub.likes: must be at least 0',
      'models[0].hub.id: must equal hub_id (acme/chat-7b)',
      'models[0].author: must be letters, digits, ".", "_" or "-"',
      'models[0].default_parameters.seed: unknown field',
      'models[0].default_parameters.temperature: must be a number from 0 to 2',
      'models[0].default_parameters.top_k: must be an integer from -1',
    ]);
  });

  test('provider pages, headquarters and ids report problems by path', () => {
    const document = catalogueDocument();
    document.providers = [
      { ...providerDocument(), privacy_policy_url: 'ftp://x', headquarters: 'usa', compliance: { zdr: true, zdr_status: '' } },
      { ...providerDocument('beta'), id: 'sim-alpha' },
    ];
    expect(problemsOf(document)).toEqual([
      'providers[0].compliance.zdr_status: must not be empty',
      'providers[0].headquarters: must be a two-letter country code',
      'providers[0].privacy_policy_url: must be an http or https URL',
      'providers[1].id: duplicate provider id "sim-alpha"',
    ]);
  });
});
