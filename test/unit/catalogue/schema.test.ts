import { describe, expect, test } from 'vitest';
import { validateCatalogue } from '../../../src/catalogue/catalogue-schema.js';
import { loadCatalogueFile, parseCatalogueText } from '../../../src/catalogue/loader.js';
import type { CatalogueProblem } from '../../../src/catalogue/types.js';
import { catalogueDocument, endpointDocument, providerDocument, validCatalogue } from '../../fixtures/catalogue/documents.js';

function problemsOf(document: unknown): string[] {
  const result = validateCatalogue(document, 0);
  if (result.ok) return [];
  return result.problems.map((problem: CatalogueProblem) => `${problem.path}: ${problem.message}`);
}

describe('catalogue schema', () => {
  test('a file with many problems reports every one with its path', async () => {
    const result = await loadCatalogueFile('test/fixtures/catalogue/invalid.yaml');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'providers[1].api: must be one of openai, anthropic, cohere',
      'providers[1].base_url: must be an absolute URL',
      'providers[2].slug: duplicate provider "sim-alpha"',
      'models[0].created: must be a date YYYY-MM-DD or unix seconds',
      'models[0].endpoints[0].colour: unknown field',
      'models[0].endpoints[0].pricing.prompt: not a decimal string',
      'models[0].endpoints[0].pricing.completion: must not be negative',
      'models[0].endpoints[1].provider: unknown provider "x"',
      'models[0].endpoints[1].context_length: must be at least 1',
      'models[1].id: must look like <author>/<slug>',
      'models[1].endpoints[0].pricing.overrides[0].utc_start: must be a UTC time HHMM (0000 to 2359)',
      'models[1].endpoints[0].pricing.overrides[0].utc_end: required with utc_start/utc_end',
      'models[2].id: duplicate model "acme/chat"',
    ]);
  });

  test('a price written as a YAML number is refused as not a decimal string', () => {
    const text = 'providers: []\nmodels: []\n';
    expect(parseCatalogueText(text, 'x.yaml').ok).toBe(true);
    const document = catalogueDocument([endpointDocument({ pricing: { prompt: 0.0000005 } })]);
    expect(problemsOf(document)).toEqual(['models[0].endpoints[0].pricing.prompt: not a decimal string']);
  });

  test('unknown fields are refused at every level', () => {
    const document = catalogueDocument([endpointDocument({ pricing: { prompt: '1', colour: 'red' } })]);
    (document.providers as Record<string, unknown>[])[0] = { ...providerDocument(), region: 'x' };
    document.extra = true;
    expect(problemsOf(document)).toEqual([
      'extra: unknown field',
      'providers[0].region: unknown field',
      'models[0].endpoints[0].pricing.colour: unknown field',
    ]);
  });

  test('missing required fields are named', () => {
    const document = { providers: [{ slug: 'p' }], models: [{ id: 'a/b', endpoints: [{ provider: 'p' }] }] };
    expect(problemsOf(document)).toEqual([
      'providers[0].name: required',
      'providers[0].api: required',
      'providers[0].base_url: required',
      'providers[0].data_policy: required',
      'providers[0].compliance: required',
      'models[0].name: required',
      'models[0].created: required',
      'models[0].endpoints[0].context_length: required',
      'models[0].endpoints[0].upstream_model: required',
      'models[0].endpoints[0].supported_parameters: required',
      'models[0].endpoints[0].pricing: required',
    ]);
  });

  test('two endpoints of one model on one provider need distinct quantizations', () => {
    const same = catalogueDocument([endpointDocument({ quantization: 'fp8' }), endpointDocument({ quantization: 'fp8' })]);
    expect(problemsOf(same)).toEqual([
      'models[0].endpoints[1]: duplicate endpoint "sim-alpha/acme/chat/fp8" (give each endpoint on one provider its own quantization)',
    ]);
    const distinct = catalogueDocument([endpointDocument({ quantization: 'fp8' }), endpointDocument({ quantization: 'int4' })]);
    expect(problemsOf(distinct)).toEqual([]);
  });

  test('negative, over-precise and malformed prices are refused', () => {
    const pricing = { prompt: '-0.1', completion: '0.0000000000000000000000001', request: '1e-6', image: 'abc' };
    expect(problemsOf(catalogueDocument([endpointDocument({ pricing })]))).toEqual([
      'models[0].endpoints[0].pricing.prompt: must not be negative',
      'models[0].endpoints[0].pricing.completion: more than 24 decimal places: 0.0000000000000000000000001',
      'models[0].endpoints[0].pricing.request: not a decimal string',
      'models[0].endpoints[0].pricing.image: not a decimal string',
    ]);
  });

  test('discount must be a decimal below 1 and may be negative', () => {
    const priced = (discount: unknown) => catalogueDocument([endpointDocument({ pricing: { prompt: '1', discount } })]);
    expect(problemsOf(priced('1'))).toEqual(['models[0].endpoints[0].pricing.discount: must be below 1']);
    expect(problemsOf(priced(0.1))).toEqual(['models[0].endpoints[0].pricing.discount: not a decimal string']);
    expect(problemsOf(priced('-0.25'))).toEqual([]);
  });

  test('an override needs a price and a condition; days must be lowercase day names', () => {
    const overrides = [{ prompt: '1' }, { min_prompt_tokens: 10 }, { utc_days: ['Monday'], prompt: '1' }];
    expect(problemsOf(catalogueDocument([endpointDocument({ pricing: { prompt: '1', overrides } })]))).toEqual([
      'models[0].endpoints[0].pricing.overrides[0]: needs a condition (min_prompt_tokens, utc_start/utc_end or utc_days)',
      'models[0].endpoints[0].pricing.overrides[1]: declares no price',
      'models[0].endpoints[0].pricing.overrides[2].utc_days[0]: must be one of sunday, monday, tuesday, wednesday, thursday, friday, saturday',
    ]);
  });

  test('modalities, quantization and the ceiling name are checked against their lists', () => {
    const endpoint = endpointDocument({
      input_modalities: ['text', 'smell'],
      output_modalities: [],
      quantization: 'fp7',
      max_tokens_parameter: 'limit',
      max_completion_tokens: 9000,
    });
    expect(problemsOf(catalogueDocument([endpoint]))).toEqual([
      'models[0].endpoints[0].quantization: must be one of int2, int4, int8, fp4, fp6, fp8, fp16, bf16, fp32, unknown',
      'models[0].endpoints[0].max_completion_tokens: must not exceed context_length (8192)',
      'models[0].endpoints[0].max_tokens_parameter: must be one of max_tokens, max_completion_tokens',
      'models[0].endpoints[0].input_modalities[1]: must be one of text, image, file, audio, video, embeddings, rerank, mesh',
      'models[0].endpoints[0].output_modalities: must name at least one modality',
    ]);
  });

  test('YAML syntax errors name the file, line and column', () => {
    const result = parseCatalogueText('providers: [\nmodels: x\n', 'broken.yaml');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]?.path).toMatch(/^broken\.yaml:\d+:\d+$/);
  });

  test('an empty file and a missing file are each one problem', async () => {
    expect(parseCatalogueText('', 'empty.yaml')).toEqual({
      ok: false,
      problems: [{ path: 'empty.yaml', message: 'the file is empty (expected providers and models)' }],
    });
    const missing = await loadCatalogueFile('test/fixtures/catalogue/no-such-file.yaml');
    expect(missing.ok ? [] : missing.problems.map((p) => p.message)).toEqual(['cannot read the file (ENOENT)']);
  });
});

describe('catalogue values', () => {
  test('the valid fixture loads every field with its defaults', async () => {
    const result = await loadCatalogueFile('test/fixtures/catalogue/valid.yaml');
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const { catalogue } = result;
    expect([...catalogue.providers.keys()]).toEqual(['sim-alpha', 'sim-beta']);
    expect(catalogue.providers.get('sim-beta')).toEqual({
      id: 'sim-beta',
      slug: 'sim-beta',
      name: 'Sim Beta',
      api: 'anthropic',
      baseUrl: 'https://beta.example.com/v1',
      dataPolicy: { training: true, retentionDays: 30 },
      compliance: { zdr: false, hipaa: true, zdrStatus: null },
      datacenters: ['DE', 'EU'],
      headquarters: null,
      links: { privacyPolicyUrl: null, termsOfServiceUrl: null, statusPageUrl: null },
    });
    expect(catalogue.providers.get('sim-alpha')?.apiKeyEnv).toBe('SIM_ALPHA_KEY');
    const fp16 = catalogue.endpoints.get('sim-beta/acme/chat-large/fp16');
    expect(fp16?.maxTokensParameter).toBe('max_completion_tokens');
    expect(fp16?.inputModalities).toEqual(['text']);
    expect(fp16?.maxCompletionTokens).toBeNull();
    expect(fp16?.pricing.discount).toBe('0.1');
    expect(fp16?.pricing.overrides[1]).toMatchObject({ utcStart: '2200', utcEnd: '0600', utcDays: ['friday', 'saturday'] });
    expect(catalogue.endpoints.get('sim-beta/acme/chat-large/int4')?.disabled).toBe(true);
    const small = catalogue.endpoints.get('sim-alpha/acme/chat-small');
    expect(small?.quantization).toBeNull();
    expect(small?.pricing).toEqual({ prices: {}, discount: '0', overrides: [] });
  });

  test('created accepts a YYYY-MM-DD day, a Date and unix seconds; expiration_date stays a day', () => {
    const withCreated = (created: unknown, expiration_date?: unknown) => ({
      providers: [providerDocument()],
      models: [{ id: 'acme/chat', name: 'n', created, expiration_date, endpoints: [endpointDocument()] }],
    });
    const day = Date.UTC(2025, 5, 1) / 1000;
    expect(validCatalogue(withCreated('2025-06-01')).models.get('acme/chat')?.created).toBe(day);
    expect(validCatalogue(withCreated(new Date('2025-06-01T00:00:00Z'))).models.get('acme/chat')?.created).toBe(day);
    expect(validCatalogue(withCreated(1700000000)).models.get('acme/chat')?.created).toBe(1700000000);
    const expiring = validCatalogue(withCreated('2025-06-01', new Date('2026-01-31T00:00:00Z')));
    expect(expiring.models.get('acme/chat')?.expirationDate).toBe('2026-01-31');
    expect(problemsOf(withCreated(-5))).toEqual(['models[0].created: must be at least 0']);
  });

  test('prices are held exactly as units of 10^-24 USD', () => {
    const catalogue = validCatalogue(
      catalogueDocument([endpointDocument({ pricing: { prompt: '0.0000005', completion: '0.000000000000000000000001', request: '12' } })]),
    );
    const prices = catalogue.endpoints.get('sim-alpha/acme/chat')?.pricing.prices;
    expect(prices?.prompt).toEqual({ text: '0.0000005', units: 500_000_000_000_000_000n });
    expect(prices?.completion?.units).toBe(1n);
    expect(prices?.request?.units).toBe(12n * 10n ** 24n);
  });

  test('an unquoted HHMM such as 0600 (read by YAML as 600) keeps its four digits', () => {
    const text = [
      'providers:',
      '  - { slug: p, name: P, api: openai, base_url: "http://x/v1", data_policy: { training: false }, compliance: { zdr: false } }',
      'models:',
      '  - id: a/b',
      '    name: B',
      '    created: 2025-01-01',
      '    endpoints:',
      '      - provider: p',
      '        upstream_model: b',
      '        context_length: 100',
      '        supported_parameters: []',
      '        pricing: { prompt: "1", overrides: [{ utc_start: 0600, utc_end: 0000, prompt: "2" }] }',
    ].join('\n');
    const result = parseCatalogueText(text, 'x.yaml');
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.catalogue.endpoints.get('p/a/b')?.pricing.overrides[0]).toMatchObject({ utcStart: '0600', utcEnd: '0000' });
  });
});
