import { describe, expect, test } from 'vitest';
import { chatCatalogue, endpoint } from '../../../fixtures/planner/catalogue-yaml.js';
import { chatRequest, firstAttempt, planFor, planOf } from '../../../fixtures/planner/planning.js';

const ALPHA = 'alpha/acme/chat';
const GAMMA = 'gamma/acme/chat';

const PASSTHROUGH = {
  safe_mode: { type: 'boolean' },
  top_n: { type: 'integer', minimum: 1, maximum: 10 },
  style: { type: 'string', enum: ['vivid', 'natural'] },
  'guidance.scale': { type: 'number', minimum: 0, maximum: 20.5 },
};

const catalogue = chatCatalogue(endpoint('alpha', { passthrough_parameters: PASSTHROUGH }));

function optionsRequest(options: Record<string, Record<string, unknown>>) {
  return chatRequest({ provider: { options } });
}

describe('rule 9: provider.options', () => {
  test('an undeclared name is a 400 naming provider.options.<slug>.<name>', () => {
    const outcome = planFor(catalogue, optionsRequest({ alpha: { nonsense: 1 } }));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.status).toBe(400);
    expect(outcome.error.message).toContain('provider.options.alpha.nonsense');
  });

  test.each([
    ['a boolean given a string', 'safe_mode', 'yes'],
    ['an integer given a fraction', 'top_n', 2.5],
    ['an integer above its maximum', 'top_n', 11],
    ['an integer below its minimum', 'top_n', 0],
    ['a string outside its enum', 'style', 'bold'],
    ['a number given a string', 'guidance.scale', '7'],
    ['a number above its maximum', 'guidance.scale', 21],
  ])('a value outside its descriptor (%s) is a 400 naming it', (_, name, value) => {
    const outcome = planFor(catalogue, optionsRequest({ alpha: { [name]: value } }));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.status).toBe(400);
    expect(outcome.error.message).toContain(`provider.options.alpha.${name}`);
  });

  test('declared names with admissible values reach the attempt unchanged', () => {
    const entry = { safe_mode: true, top_n: 10, style: 'natural', 'guidance.scale': 20.5 };
    expect(firstAttempt(catalogue, optionsRequest({ alpha: entry })).options).toEqual(entry);
  });

  test('entries of other providers are not read', () => {
    const attempt = firstAttempt(catalogue, optionsRequest({ beta: { anything: 'goes' }, gamma: { top_n: 99 } }));
    expect(attempt.endpoint.id).toBe(ALPHA);
    expect(attempt.options).toBeUndefined();
  });

  test('each attempt carries only its own provider entry', () => {
    const two = chatCatalogue(
      endpoint('alpha', { passthrough_parameters: PASSTHROUGH }),
      endpoint('gamma', { passthrough_parameters: { safe_mode: { type: 'boolean' } } }),
    );
    const attempts = planOf(two, optionsRequest({ alpha: { top_n: 3 }, gamma: { safe_mode: false } })).attempts;
    const byId = new Map(attempts.map((attempt) => [attempt.endpoint.id, attempt.options]));
    expect(byId.get(ALPHA)).toEqual({ top_n: 3 });
    expect(byId.get(GAMMA)).toEqual({ safe_mode: false });
  });

  test('a request without provider.options plans no options', () => {
    expect(firstAttempt(catalogue, chatRequest()).options).toBeUndefined();
  });
});
