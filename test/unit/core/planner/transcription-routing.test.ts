import { describe, expect, test } from 'vitest';
import { parseUsd } from '../../../../src/billing/money.js';
import type { Catalogue } from '../../../../src/catalogue/types.js';
import { GatewayError } from '../../../../src/core/errors.js';
import type { TranscriptionRoute } from '../../../../src/core/operation.js';
import { planHoldAmount, planRequest, type PlanOutcome, type RankedPlan } from '../../../../src/core/planner/planner.js';
import { LiveEndpointState } from '../../../../src/stats/endpoint-state.js';
import { catalogueOf, endpoint, model } from '../../../fixtures/planner/catalogue-yaml.js';
import { chatRequest, PLAN_NOW, refusalOf, rejectionsOf } from '../../../fixtures/planner/planning.js';

/** A transcription endpoint: audio in, a transcript out, billed per second unless `extra` says otherwise. */
function transcribes(provider: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return endpoint(provider, {
    input_modalities: ['audio'],
    output_modalities: ['transcription'],
    input_containers: { audio: ['wav', 'mp3'] },
    supported_parameters: [],
    pricing: { audio_second: '0.0001' },
    ...extra,
  });
}

const TOKEN_PRICES = { prompt: '0.0000025', completion: '0.00001' };

const catalogue = catalogueOf([
  model('acme/stt', [
    // whisper-style: timed segments, FLAC too, three languages, per second
    transcribes('alpha', { supported_parameters: ['timestamp_granularities'], supported_languages: ['en', 'fr', 'pt'], input_containers: { audio: ['wav', 'mp3', 'flac'] } }),
    // gpt-4o-transcribe-style: English only, no timed segments, per token
    transcribes('beta', { supported_languages: ['en'], context_length: 16000, max_completion_tokens: 2000, pricing: TOKEN_PRICES }),
    // a chat model that hears audio is not a transcription endpoint
    endpoint('gamma', { input_modalities: ['text', 'audio'], output_modalities: ['text'] }),
  ]),
]);

function transcription(route: Partial<TranscriptionRoute> = {}) {
  return chatRequest({ models: ['acme/stt'], messages: [], operation: { kind: 'transcription', seconds: '2.345678', timed: false, ...route } });
}

/** Plans a transcription as the pipeline does: the facts carry the recording as one audio part in its container. */
function planTranscription(on: Catalogue, route: Partial<TranscriptionRoute> = {}, container = 'wav', models = ['acme/stt']): PlanOutcome {
  const state = new LiveEndpointState();
  return planRequest({
    catalogue: on,
    state,
    verdicts: state.verdicts,
    request: { ...transcription(route), models },
    facts: { promptTokens: 0, messageTokens: [], toolTokens: 0, inputs: [{ modality: 'audio', source: 'base64', container }], windowTokens: 0 },
    now: PLAN_NOW,
  });
}

function planned(on: Catalogue, route: Partial<TranscriptionRoute> = {}, container = 'wav', models = ['acme/stt']): RankedPlan {
  const outcome = planTranscription(on, route, container, models);
  if (!outcome.ok) throw new Error(`expected a plan, got ${outcome.error.status} ${outcome.error.message}`);
  return outcome.plan;
}

function refused(on: Catalogue, route: Partial<TranscriptionRoute> = {}, container = 'wav', models = ['acme/stt']): GatewayError {
  const outcome = planTranscription(on, route, container, models);
  if (outcome.ok) throw new Error(`expected a refusal, got ${outcome.plan.attempts.map((attempt) => attempt.endpoint.id).join(', ')}`);
  return outcome.error;
}

const ids = (plan: RankedPlan) => plan.attempts.map((attempt) => attempt.endpoint.id).sort();
const reasonFor = (error: GatewayError, id: string) => rejectionsOf(error).find((rejection) => rejection.endpoint === id)?.reason;

describe('transcription routing', () => {
  test('only endpoints declaring transcription output serve it; a chat endpoint hearing audio does not', () => {
    expect(ids(planned(catalogue))).toEqual(['alpha/acme/stt', 'beta/acme/stt']);
    expect(reasonFor(refused(catalogue, {}, 'ogg'), 'gamma/acme/stt')).toBe('does not serve transcription');
  });

  test('a model with no transcription endpoint is a 502', () => {
    const chat = catalogueOf([model('acme/chat', [endpoint('alpha', { input_modalities: ['text', 'audio'] })])]);
    const error = refused(chat, {}, 'wav', ['acme/chat']);
    expect(error.status).toBe(502);
    expect(error.message).toContain('no endpoint serves transcription');
  });

  test('a conversation is never sent to a transcription-only endpoint', () => {
    const only = catalogueOf([model('acme/stt', [transcribes('alpha')])]);
    expect(rejectionsOf(refusalOf(only, chatRequest({ models: ['acme/stt'] })))).toEqual([{ endpoint: 'alpha/acme/stt', reason: 'serves only transcription' }]);
  });

  test('the recording\'s container goes only to endpoints accepting it', () => {
    expect(ids(planned(catalogue, {}, 'flac'))).toEqual(['alpha/acme/stt']);
    const error = refused(catalogue, {}, 'ogg');
    expect(error.status).toBe(503);
    expect(reasonFor(error, 'alpha/acme/stt')).toBe('does not accept audio in ogg');
    expect(reasonFor(error, 'beta/acme/stt')).toBe('does not accept audio in ogg');
  });

  test('a language goes only to endpoints declaring it', () => {
    expect(ids(planned(catalogue, { language: 'fr' }))).toEqual(['alpha/acme/stt']);
    expect(ids(planned(catalogue, { language: 'en' }))).toEqual(['alpha/acme/stt', 'beta/acme/stt']);
  });

  test('an endpoint declaring the language but unable otherwise leaves a 503 naming each reason', () => {
    const error = refused(catalogue, { language: 'fr' }, 'ogg');
    expect(error.status).toBe(503);
    expect(error.code).toBe('no_route');
    expect(reasonFor(error, 'beta/acme/stt')).toBe('does not transcribe language fr');
    expect(reasonFor(error, 'alpha/acme/stt')).toBe('does not accept audio in ogg');
    expect(error.message).toContain('does not transcribe language fr');
  });

  test('a language is matched by its primary subtag: pt asks an endpoint declaring pt-BR, pt-BR one declaring pt', () => {
    const regional = catalogueOf([model('acme/stt', [transcribes('alpha', { supported_languages: ['pt-BR'] }), transcribes('beta', { supported_languages: ['en'] })])]);
    expect(ids(planned(regional, { language: 'pt' }))).toEqual(['alpha/acme/stt']);
    expect(ids(planned(catalogue, { language: 'pt-BR' }))).toEqual(['alpha/acme/stt']);
  });

  test('a language no endpoint declares, where every one declares its languages, is a 400 naming language', () => {
    const error = refused(catalogue, { language: 'ja' });
    expect(error.status).toBe(400);
    expect(error.metadata.field).toBe('language');
    expect(error.metadata.supported_languages).toEqual(['en', 'fr', 'pt']);
  });

  test('an endpoint declaring no languages takes any language, so it is no 400', () => {
    const open = catalogueOf([model('acme/stt', [transcribes('alpha', { supported_languages: ['en'] }), transcribes('beta')])]);
    expect(ids(planned(open, { language: 'ja' }))).toEqual(['beta/acme/stt']);
  });

  test('captions or timestamps go only to endpoints declaring timestamp_granularities', () => {
    expect(ids(planned(catalogue, { timed: true }))).toEqual(['alpha/acme/stt']);
    const error = refused(catalogue, { timed: true }, 'ogg');
    expect(reasonFor(error, 'beta/acme/stt')).toBe('does not answer with timed segments');
  });

  test('timed and a language only the untimed endpoint declares is a 503 naming both reasons', () => {
    const split = catalogueOf([model('acme/stt', [
      transcribes('alpha', { supported_parameters: ['timestamp_granularities'], supported_languages: ['en'] }),
      transcribes('beta', { supported_languages: ['de'] }),
    ])]);
    const error = refused(split, { timed: true, language: 'de' });
    expect(error.status).toBe(503);
    expect(rejectionsOf(error)).toEqual([
      { endpoint: 'alpha/acme/stt', reason: 'does not transcribe language de' },
      { endpoint: 'beta/acme/stt', reason: 'does not answer with timed segments' },
    ]);
  });
});

describe('the hold of a transcription', () => {
  test('per second: the seconds read × audio_second, exactly', () => {
    const plan = planned(catalogue, { seconds: '2.345678', timed: true });
    expect(plan.attempts[0]?.estimatedCost).toBe(parseUsd('0.0002345678'));
    expect(planHoldAmount(plan)).toBe(parseUsd('0.0002345678'));
  });

  test('per second, the hold grows with the seconds', () => {
    expect(planHoldAmount(planned(catalogue, { seconds: '600.000000', timed: true }))).toBe(parseUsd('0.06'));
  });

  test('per token: the whole window at the prompt price and the output limit at the completion price', () => {
    const beta = planned(catalogue).attempts.find((attempt) => attempt.endpoint.id === 'beta/acme/stt');
    expect(beta?.estimatedCost).toBe(parseUsd('0.0000025') * 16000n + parseUsd('0.00001') * 2000n);
  });

  test('per token without a declared output limit: the window is the output limit', () => {
    const unlimited = catalogueOf([model('acme/stt', [transcribes('alpha', { context_length: 4000, pricing: TOKEN_PRICES })])]);
    expect(planned(unlimited).attempts[0]?.estimatedCost).toBe(parseUsd('0.0000025') * 4000n + parseUsd('0.00001') * 4000n);
  });

  test('the plan holds the dearest of its attempts', () => {
    expect(planHoldAmount(planned(catalogue))).toBe(parseUsd('0.06'));
  });

  test('seconds and tokens both priced are both held, with the request price', () => {
    const both = catalogueOf([model('acme/stt', [transcribes('alpha', {
      context_length: 1000, max_completion_tokens: 100, pricing: { audio_second: '0.0001', prompt: '0.000001', completion: '0.000002', request: '0.001' },
    })])]);
    expect(planned(both, { seconds: '10.000000' }).attempts[0]?.estimatedCost).toBe(parseUsd('0.001') + parseUsd('0.001') + parseUsd('0.0002') + parseUsd('0.001'));
  });

  test('a transcription whose seconds were never read is a programming error, not a refusal', () => {
    const route: TranscriptionRoute = { kind: 'transcription', timed: false };
    const state = new LiveEndpointState();
    const plan = () => planRequest({
      catalogue,
      state,
      verdicts: state.verdicts,
      request: chatRequest({ models: ['acme/stt'], messages: [], operation: route }),
      facts: { promptTokens: 0, messageTokens: [], toolTokens: 0, inputs: [{ modality: 'audio', source: 'base64', container: 'wav' }] },
      now: PLAN_NOW,
    });
    expect(plan).toThrow(/seconds/);
    try {
      plan();
    } catch (error) {
      expect(error).not.toBeInstanceOf(GatewayError);
    }
  });
});
