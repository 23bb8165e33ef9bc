import { describe, expect, test } from 'vitest';
import { loadCatalogueFile } from '../../../src/catalogue/loader.js';
import { endpointProblems as problemsOf, loadedEndpoint as endpointOf } from '../../fixtures/catalogue/documents.js';

const at = 'models[0].endpoints[0]';

describe('endpoint routing declarations', () => {
  test('a file with bad declarations reports every problem with its path', async () => {
    const result = await loadCatalogueFile('test/fixtures/catalogue/invalid-declarations.yaml');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      `${at}.reasoning.budget: unknown field`,
      `${at}.reasoning.supported_efforts[2]: must be one of none, minimal, low, medium, high, xhigh, max`,
      `${at}.reasoning.supported_efforts: must list efforts strongest first (max, xhigh, high, medium, low, minimal, none)`,
      `${at}.reasoning.default_effort: must be one of supported_efforts (high, low)`,
      `${at}.reasoning.default_enabled: must not be false when mandatory is true`,
      `${at}.passthrough_parameters.bad name: name must be 1 to 64 letters, digits, "_", "." or "-"`,
      `${at}.passthrough_parameters.safe_mode.type: must be one of boolean, integer, number, string`,
      `${at}.passthrough_parameters.top_n.maximum: must be at least minimum (10)`,
      `${at}.passthrough_parameters.strength.minimum: must be a number`,
      `${at}.passthrough_parameters.style.enum: must name at least one value`,
      `${at}.passthrough_parameters.seed_mode.maximum: only for integer or number parameters`,
      `${at}.passthrough_parameters.seed_mode.enum: only for integer, number or string parameters`,
      `${at}.passthrough_parameters.steps.default: unknown field`,
      `${at}.passthrough_parameters.steps.enum[1]: duplicate 10`,
      `${at}.passthrough_parameters.steps.enum[2]: must be an integer`,
      `${at}.input_sources.smell: unknown field`,
      `${at}.input_sources.image[1]: must be one of url, base64`,
      `${at}.input_sources.audio: audio is not among input_modalities`,
      `${at}.input_containers.image[0]: must be a lowercase container name such as png, jpeg, wav or mp3`,
      `${at}.input_containers.image[1]: write "jpeg" for "jpg"`,
      `${at}.tool_call_dispatch: must be true or false`,
    ]);
  });

  test('an endpoint declaring none of them has an unknown reasoning domain and accepts any input form', () => {
    const endpoint = endpointOf({});
    expect(endpoint.reasoning).toBeNull();
    expect(endpoint.passthrough.size).toBe(0);
    expect(endpoint.inputSources).toEqual({});
    expect(endpoint.inputContainers).toEqual({});
    expect(endpoint.toolCallDispatch).toBe(false);
  });

  test('the valid fixture loads every declaration', async () => {
    const result = await loadCatalogueFile('test/fixtures/catalogue/valid.yaml');
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const endpoint = result.catalogue.endpoints.get('sim-alpha/acme/chat-large');
    expect(endpoint?.reasoning).toEqual({
      supportedEfforts: ['high', 'medium', 'low'],
      mandatory: false,
      defaultEffort: 'medium',
      defaultEnabled: true,
      supportsMaxTokens: true,
    });
    expect(Object.fromEntries(endpoint?.passthrough ?? [])).toEqual({
      safe_mode: { type: 'boolean' },
      top_n: { type: 'integer', minimum: 1, maximum: 10 },
      style: { type: 'string', enum: ['vivid', 'natural'] },
      'guidance.scale': { type: 'number', minimum: 0, maximum: 20.5, enum: [1.5, 7, 20.5] },
    });
    expect(endpoint?.inputSources).toEqual({ image: ['url', 'base64'] });
    expect(endpoint?.inputContainers).toEqual({ image: ['png', 'jpeg', 'webp'] });
    expect(endpoint?.toolCallDispatch).toBe(true);
  });
});

describe('reasoning domain', () => {
  test('an empty reasoning mapping is a known domain that declares nothing', () => {
    expect(endpointOf({ reasoning: {} }).reasoning).toEqual({});
  });

  test('supported efforts out of strength order are refused', () => {
    expect(problemsOf({ reasoning: { supported_efforts: ['medium', 'high'] } })).toEqual([
      `${at}.reasoning.supported_efforts: must list efforts strongest first (max, xhigh, high, medium, low, minimal, none)`,
    ]);
    expect(endpointOf({ reasoning: { supported_efforts: ['max', 'xhigh', 'minimal', 'none'] } }).reasoning).toEqual({
      supportedEfforts: ['max', 'xhigh', 'minimal', 'none'],
    });
  });

  test('an empty or repeated effort list is refused', () => {
    expect(problemsOf({ reasoning: { supported_efforts: [] } })).toEqual([
      `${at}.reasoning.supported_efforts: must name at least one effort (leave it out when the levels are unknown)`,
    ]);
    expect(problemsOf({ reasoning: { supported_efforts: ['high', 'high'] } })).toEqual([
      `${at}.reasoning.supported_efforts[1]: duplicate "high"`,
    ]);
  });

  test('default_effort must be among supported_efforts, and any known level when they are undeclared', () => {
    expect(problemsOf({ reasoning: { supported_efforts: ['high', 'low'], default_effort: 'medium' } })).toEqual([
      `${at}.reasoning.default_effort: must be one of supported_efforts (high, low)`,
    ]);
    expect(endpointOf({ reasoning: { default_effort: 'xhigh' } }).reasoning).toEqual({ defaultEffort: 'xhigh' });
    expect(problemsOf({ reasoning: { default_effort: 'huge' } })).toEqual([
      `${at}.reasoning.default_effort: must be one of none, minimal, low, medium, high, xhigh, max`,
    ]);
  });

  test('the flags must be booleans', () => {
    expect(problemsOf({ reasoning: { mandatory: 'no', supports_max_tokens: 1 } })).toEqual([
      `${at}.reasoning.mandatory: must be true or false`,
      `${at}.reasoning.supports_max_tokens: must be true or false`,
    ]);
    expect(problemsOf({ reasoning: 'high' })).toEqual([`${at}.reasoning: must be a mapping`]);
  });
});

describe('passthrough parameters', () => {
  test('names longer than 64 characters or with other characters are refused', () => {
    const long = 'a'.repeat(65);
    expect(problemsOf({ passthrough_parameters: { [long]: { type: 'string' }, 'a/b': { type: 'string' } } })).toEqual([
      `${at}.passthrough_parameters.${long}: name must be 1 to 64 letters, digits, "_", "." or "-"`,
      `${at}.passthrough_parameters.a/b: name must be 1 to 64 letters, digits, "_", "." or "-"`,
    ]);
    expect(endpointOf({ passthrough_parameters: { ['a'.repeat(64)]: { type: 'string' } } }).passthrough.size).toBe(1);
  });

  test('a descriptor needs a type', () => {
    expect(problemsOf({ passthrough_parameters: { steps: { minimum: 1 } } })).toEqual([
      `${at}.passthrough_parameters.steps.type: required`,
    ]);
    expect(problemsOf({ passthrough_parameters: { steps: null } })).toEqual([`${at}.passthrough_parameters.steps: must be a mapping`]);
  });

  test('an integer parameter takes integer bounds and enum values inside them', () => {
    const steps = { type: 'integer', minimum: 1.5, maximum: 50, enum: [10, 60, '20'] };
    expect(problemsOf({ passthrough_parameters: { steps } })).toEqual([
      `${at}.passthrough_parameters.steps.minimum: must be an integer`,
      `${at}.passthrough_parameters.steps.enum[1]: outside minimum/maximum`,
      `${at}.passthrough_parameters.steps.enum[2]: must be an integer`,
    ]);
  });

  test('a number parameter takes fractional bounds, equal bounds included', () => {
    const endpoint = endpointOf({ passthrough_parameters: { cfg: { type: 'number', minimum: 0.5, maximum: 0.5 } } });
    expect(endpoint.passthrough.get('cfg')).toEqual({ type: 'number', minimum: 0.5, maximum: 0.5 });
  });

  test('string enum values must be strings', () => {
    expect(problemsOf({ passthrough_parameters: { style: { type: 'string', enum: ['vivid', 3] } } })).toEqual([
      `${at}.passthrough_parameters.style.enum[1]: must be a string`,
    ]);
    expect(problemsOf({ passthrough_parameters: { style: { type: 'string', minimum: 1 } } })).toEqual([
      `${at}.passthrough_parameters.style.minimum: only for integer or number parameters`,
    ]);
  });

  test('passthrough_parameters must be a mapping', () => {
    expect(problemsOf({ passthrough_parameters: ['safe_mode'] })).toEqual([`${at}.passthrough_parameters: must be a mapping`]);
  });
});

describe('input sources and containers', () => {
  test('a modality not among input_modalities is refused, naming it', () => {
    expect(problemsOf({ input_sources: { audio: ['base64'] } })).toEqual([
      `${at}.input_sources.audio: audio is not among input_modalities`,
    ]);
    expect(problemsOf({ input_modalities: ['text', 'image'], input_containers: { audio: ['wav'] } })).toEqual([
      `${at}.input_containers.audio: audio is not among input_modalities`,
    ]);
  });

  test('text takes no source or container declaration', () => {
    expect(problemsOf({ input_sources: { text: ['url'] }, input_containers: { text: ['txt'] } })).toEqual([
      `${at}.input_sources.text: text takes no sources`,
      `${at}.input_containers.text: text takes no containers`,
    ]);
  });

  test('lists must be non-empty lists of known values', () => {
    const declared = { input_modalities: ['text', 'image', 'audio', 'file'] };
    expect(problemsOf({ ...declared, input_sources: { image: [], audio: null, file: 'url' } })).toEqual([
      `${at}.input_sources.image: must name at least one`,
      `${at}.input_sources.audio: must be a list`,
      `${at}.input_sources.file: must be a list`,
    ]);
    expect(problemsOf({ ...declared, input_containers: { image: 'png', file: { pdf: true } } })).toEqual([
      `${at}.input_containers.image: must be a list`,
      `${at}.input_containers.file: must be a list`,
    ]);
    expect(problemsOf({ ...declared, input_containers: { audio: ['wav', 'wav', 'Mp3'] } })).toEqual([
      `${at}.input_containers.audio[1]: duplicate "wav"`,
      `${at}.input_containers.audio[2]: must be a lowercase container name such as png, jpeg, wav or mp3`,
    ]);
  });

  test('declarations are kept per modality as written', () => {
    const endpoint = endpointOf({
      input_modalities: ['text', 'image', 'audio', 'file'],
      input_sources: { audio: ['base64'], image: ['base64', 'url'] },
      input_containers: { audio: ['wav', 'mp3', 'flac'], file: ['pdf'] },
    });
    expect(endpoint.inputSources).toEqual({ audio: ['base64'], image: ['base64', 'url'] });
    expect(endpoint.inputContainers).toEqual({ audio: ['wav', 'mp3', 'flac'], file: ['pdf'] });
  });

  test('tool_call_dispatch defaults to false and reads a boolean', () => {
    expect(endpointOf({ tool_call_dispatch: true }).toolCallDispatch).toBe(true);
    expect(problemsOf({ tool_call_dispatch: 1 })).toEqual([`${at}.tool_call_dispatch: must be true or false`]);
  });
});
