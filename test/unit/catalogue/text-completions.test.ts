import { describe, expect, test } from 'vitest';
import { validateCatalogue } from '../../../src/catalogue/catalogue-schema.js';
import { catalogueDocument, endpointDocument, providerDocument, validCatalogue } from '../../fixtures/catalogue/documents.js';

describe('the text_completions endpoint declaration', () => {
  test('defaults to false and reads true', () => {
    const plain = validCatalogue(catalogueDocument()).endpoints.get('sim-alpha/acme/chat');
    expect(plain?.textCompletions).toBe(false);
    const declared = validCatalogue(catalogueDocument([endpointDocument({ text_completions: true })])).endpoints.get('sim-alpha/acme/chat');
    expect(declared?.textCompletions).toBe(true);
  });

  test('a value that is not a boolean is a problem naming its path', () => {
    const result = validateCatalogue(catalogueDocument([endpointDocument({ text_completions: 'yes' })]), 0);
    expect(result.ok ? [] : result.problems.map((problem) => problem.path)).toEqual(['models[0].endpoints[0].text_completions']);
  });

  test('only an openai-API provider may declare it', () => {
    const document = {
      ...catalogueDocument([endpointDocument({ text_completions: true })]),
      providers: [{ ...providerDocument(), api: 'anthropic' }],
    };
    const result = validateCatalogue(document, 0);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => `${problem.path}: ${problem.message}`)).toEqual([
      'models[0].endpoints[0].text_completions: only an openai-API provider speaks the text-completions wire (sim-alpha speaks anthropic)',
    ]);
  });
});
