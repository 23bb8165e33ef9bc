import { describe, expect, test } from 'vitest';
import { listedModels, summaryOf, type ListedModel } from '../../../../src/catalogue/listing/listed-model.js';
import { modelSummary } from '../../../../src/catalogue/listing/model-summary.js';
import type { ModelEntry } from '../../../../src/catalogue/types.js';
import { catalogueDocument, endpointDocument, validCatalogue } from '../../../fixtures/catalogue/documents.js';
import { listingCatalogue } from './listing-catalogue.js';

function model(id: string): ModelEntry {
  const found = listingCatalogue().models.get(id);
  if (!found) throw new Error(`no ${id}`);
  return found;
}

describe('catalogue model summary', () => {
  test('has every member of the spec in its order, with hub absent without a reading', () => {
    expect(Object.keys(modelSummary(model('acme/chat')))).toEqual([
      'id', 'canonical_slug', 'hub_id', 'name', 'created', 'expiration_date', 'description', 'context_length', 'architecture', 'pricing',
      'top_provider', 'per_request_limits', 'supported_parameters', 'default_parameters', 'family', 'author', 'tags', 'endpoint_count',
      'links', 'supported_voices', 'supported_dimensions', 'supported_languages',
    ]);
  });

  test('window, tokenizer and prices come from the cheapest live endpoint; parameters are the sorted union', () => {
    const summary = modelSummary(model('acme/chat'));
    expect(summary.context_length).toBe(8192);
    expect(summary.architecture).toEqual({ modality: 'text->text', input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'GPT', instruct_type: null });
    expect(summary.pricing).toEqual({ prompt: '0.0000005', completion: '0.0000015', discount: 0 });
    expect(summary.supported_parameters).toEqual(['max_tokens', 'temperature', 'tools']);
    expect(summary.family).toEqual({ id: 'acme-chat', name: 'Acme Chat' });
    expect(summary.links).toEqual({ details: '/api/v1/models/acme/chat/endpoints' });
  });

  test('pricing keys appear only where declared, discount always', () => {
    expect(modelSummary(model('other/voice')).pricing).toEqual({ character: '0.000015', discount: 0 });
  });

  test('reasoning shows the declared controls, mandatory only when an off control exists', () => {
    expect(modelSummary(model('acme/thinker')).reasoning).toEqual({ supported_efforts: ['high', 'low'] });
    expect(modelSummary(model('acme/chat')).reasoning).toBeUndefined();
  });

  test('effort none among the levels is an off control: mandatory false without declaring it', () => {
    const catalogue = validCatalogue(catalogueDocument([endpointDocument({ supported_parameters: ['reasoning'], reasoning: { supported_efforts: ['high', 'none'] } })]));
    const [listed] = listedModels(catalogue);
    expect(summaryOf(listed as ListedModel).reasoning).toEqual({ supported_efforts: ['high', 'none'], mandatory: false });
  });

  test('voices, widths and languages are null where the model has none', () => {
    expect(modelSummary(model('other/voice'))).toMatchObject({ supported_voices: ['alloy', 'verse'], supported_dimensions: null, supported_languages: ['en', 'pt-BR'] });
    expect(modelSummary(model('other/embed'))).toMatchObject({ supported_voices: null, supported_dimensions: [64, 128], supported_languages: null });
  });

  test('languages come from the speech endpoint cheapest by its charged price per character, whatever its id', () => {
    const speech = (quantization: string, character: string, languages: string[]) => endpointDocument({
      quantization, output_modalities: ['speech'], supported_parameters: [], supported_languages: languages,
      speech_envelope: { voices: ['alloy'], codecs: ['mp3'] }, pricing: { character },
    });
    const catalogue = validCatalogue(catalogueDocument([speech('fp16', '0.00002', ['en', 'fr']), speech('int8', '0.00001', ['de'])]));
    const [listed] = listedModels(catalogue);
    expect(summaryOf(listed as ListedModel).supported_languages).toEqual(['de']);
  });

  test('languages come from the transcription endpoint cheapest by its price per second of audio, before its token prices', () => {
    const transcription = (quantization: string, pricing: Record<string, string>, languages: string[]) => endpointDocument({
      quantization, input_modalities: ['audio'], output_modalities: ['transcription'], supported_parameters: [], supported_languages: languages, pricing,
    });
    const catalogue = validCatalogue(catalogueDocument([
      transcription('fp16', { audio_second: '0.0002', prompt: '0.0000001' }, ['en', 'fr']),
      transcription('int8', { audio_second: '0.0001', prompt: '0.000001' }, ['de']),
    ]));
    const [listed] = listedModels(catalogue);
    expect(summaryOf(listed as ListedModel).supported_languages).toEqual(['de']);
  });

  test('a transcription endpoint declaring no languages lends none; one that declares them does', () => {
    const transcription = (quantization: string, audioSecond: string, languages?: string[]) => endpointDocument({
      quantization, input_modalities: ['audio'], output_modalities: ['transcription'], supported_parameters: [],
      ...(languages && { supported_languages: languages }), pricing: { audio_second: audioSecond },
    });
    const catalogue = validCatalogue(catalogueDocument([transcription('int8', '0.0001'), transcription('fp16', '0.0002', ['ja'])]));
    const [listed] = listedModels(catalogue);
    expect(summaryOf(listed as ListedModel).supported_languages).toEqual(['ja']);
  });

  test('a chat endpoint hearing audio and answering text lends no languages: it is no transcription endpoint', () => {
    const chat = endpointDocument({ input_modalities: ['text', 'audio'], output_modalities: ['text'], supported_languages: ['en', 'es'] });
    const [listed] = listedModels(validCatalogue(catalogueDocument([chat])));
    expect(summaryOf(listed as ListedModel).supported_languages).toBeNull();
  });

  test('hub facts, author and default parameters come from the file as written', () => {
    const catalogue = validCatalogue({
      ...catalogueDocument([endpointDocument()]),
      models: [{
        id: 'acme/chat', name: 'Acme: Chat', created: '2025-06-01', author: 'acme-labs',
        hub: { id: 'acme-labs/chat-7b', read_at: '2025-06-02T10:00:00Z', likes: 12, languages: ['en'] },
        default_parameters: { temperature: 0.7, top_k: 40 },
        endpoints: [endpointDocument()],
      }],
    });
    const summary = modelSummary(catalogue.models.get('acme/chat') as ModelEntry);
    expect(summary).toMatchObject({
      hub_id: 'acme-labs/chat-7b',
      hub: { id: 'acme-labs/chat-7b', read_at: '2025-06-02T10:00:00Z', likes: 12, languages: ['en'] },
      author: 'acme-labs',
      default_parameters: { temperature: 0.7, top_k: 40 },
    });
    expect(Object.keys(summary.hub as object)).toEqual(['id', 'read_at', 'languages', 'likes']);
  });
});
