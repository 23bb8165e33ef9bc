import { describe, expect, test } from 'vitest';
import type { CoreMessage, ToolDefinition } from '../../../../src/core/request.js';
import { requestFacts } from '../../../../src/core/request-facts.js';
import { isWindowReason } from '../../../../src/core/planner/window.js';
import { chatCatalogue, endpoint } from '../../../fixtures/planner/catalogue-yaml.js';
import { chatRequest, firstAttempt, planOf, refusalOf, rejectionsOf, routedIds } from '../../../fixtures/planner/planning.js';

const ALPHA = 'alpha/acme/chat';
const BETA = 'beta/acme/chat';

const CHEAP = { prompt: '0.0000001', completion: '0.0000002' };
const DEAR = { prompt: '0.000001', completion: '0.000002' };

describe('rule 7: ceiling handling', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { max_completion_tokens: 4096, pricing: CHEAP }),
    endpoint('beta', { max_completion_tokens: 16384, pricing: DEAR }),
  );

  test('an endpoint able to emit the requested tokens is preferred over a cheaper one that is not', () => {
    expect(routedIds(catalogue, chatRequest({ maxTokens: 8000 }))).toEqual([BETA, ALPHA]);
  });

  test('an endpoint short of the ceiling still serves as a fallback with the ceiling lowered to its own', () => {
    const attempts = planOf(catalogue, chatRequest({ maxTokens: 8000 })).attempts;
    expect(attempts.map((attempt) => [attempt.endpoint.id, attempt.ceiling])).toEqual([
      [BETA, 8000],
      [ALPHA, 4096],
    ]);
  });

  test('when no endpoint reaches the ceiling each serves it lowered to its own limit', () => {
    const attempts = planOf(catalogue, chatRequest({ maxTokens: 30000 })).attempts;
    expect(attempts.map((attempt) => [attempt.endpoint.id, attempt.ceiling])).toEqual([
      [ALPHA, 4096],
      [BETA, 16384],
    ]);
  });

  test('without a declared max completion the window is the output limit', () => {
    const windowOnly = chatCatalogue(
      endpoint('alpha', { context_length: 8192, max_completion_tokens: 8192, pricing: CHEAP }),
      endpoint('beta', { context_length: 32768, pricing: DEAR }),
    );
    expect(routedIds(windowOnly, chatRequest({ maxTokens: 10000 }))).toEqual([BETA, ALPHA]);
  });

  test('the ceiling is trimmed so prompt plus ceiling fits the window, tool schemas counted in the prompt', () => {
    const tools: ToolDefinition[] = [
      { type: 'function', function: { name: 'lookup', description: 'Looks a word up in a large dictionary', parameters: { type: 'object' } } },
    ];
    const windowed = chatCatalogue(endpoint('alpha', { context_length: 2000, supported_parameters: ['max_tokens', 'tools'] }));
    const request = chatRequest({ maxTokens: 1990, tools });
    const facts = requestFacts(request);
    expect(facts.toolTokens).toBeGreaterThan(0);
    const attempt = firstAttempt(windowed, request);
    expect(attempt.promptTokens).toBe(facts.promptTokens);
    expect(attempt.ceiling).toBe(2000 - facts.promptTokens);
  });

  test('a ceiling that fits is sent unchanged', () => {
    expect(firstAttempt(catalogue, chatRequest({ maxTokens: 1000 })).ceiling).toBe(1000);
  });

  test('no ceiling is invented when the caller asked for none', () => {
    expect(firstAttempt(catalogue, chatRequest()).ceiling).toBeUndefined();
  });

  test('an endpoint whose window cannot hold the prompt is not a candidate', () => {
    const small = chatCatalogue(endpoint('alpha', { context_length: 50 }), endpoint('beta'));
    const request = chatRequest({ messages: [{ role: 'user', content: 'word '.repeat(200) }] });
    expect(routedIds(small, request)).toEqual([BETA]);
  });
});

/** system, a first user turn of ~100 tokens, six ~300-token middle turns, a short last turn. */
function longConversation(): CoreMessage[] {
  const middle: CoreMessage[] = Array.from({ length: 6 }, (_, index) => ({
    role: index % 2 === 0 ? 'assistant' : 'user',
    content: `turn ${index} ${'word '.repeat(300)}`,
  }));
  return [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: `first ${'word '.repeat(100)}` },
    ...middle,
    { role: 'user', content: 'And finally?' },
  ];
}

describe('rule 8: middle-out compression', () => {
  const messages = longConversation();
  const catalogue = chatCatalogue(
    endpoint('alpha', { context_length: 1500 }),
    endpoint('beta', { context_length: 400 }),
  );

  test('the conversation does not fit either window without compression', () => {
    expect(requestFacts(chatRequest({ messages })).promptTokens).toBeGreaterThan(1500);
    expect(refusalOf(catalogue, chatRequest({ messages, maxTokens: 300 })).status).toBe(503);
  });

  test('an endpoint whose window cannot hold the kept messages beside the full ceiling is not a candidate', () => {
    const kept = requestFacts(chatRequest({ messages })).messageTokens;
    const keptTokens = (kept[0] ?? 0) + (kept[1] ?? 0) + (kept[kept.length - 1] ?? 0);
    expect(keptTokens).toBeLessThan(400);
    expect(keptTokens + 300).toBeGreaterThan(400);
    const error = refusalOf(chatCatalogue(endpoint('beta', { context_length: 400 })), chatRequest({ messages, maxTokens: 300, middleOut: true }));
    expect(error.status).toBe(503);
    expect(rejectionsOf(error)[0]?.endpoint).toBe(BETA);
    expect(routedIds(catalogue, chatRequest({ messages, maxTokens: 300, middleOut: true }))).toEqual([ALPHA]);
  });

  test('a window rejection, with or without compression, is told apart from other reasons', () => {
    const uncompressed = refusalOf(catalogue, chatRequest({ messages, maxTokens: 300 }));
    const compressed = refusalOf(chatCatalogue(endpoint('beta', { context_length: 400 })), chatRequest({ messages, maxTokens: 300, middleOut: true }));
    const reasons = [...rejectionsOf(uncompressed), ...rejectionsOf(compressed)].map((rejection) => rejection.reason);
    expect(reasons).toHaveLength(3);
    for (const reason of reasons) expect(isWindowReason(reason)).toBe(true);
    expect(isWindowReason('does not declare tools')).toBe(false);
  });

  test('middle messages are dropped, keeping system, first and last, until prompt plus ceiling fits', () => {
    const attempt = firstAttempt(catalogue, chatRequest({ messages, maxTokens: 300, middleOut: true }));
    const sent = attempt.messages ?? [];
    expect(sent.length).toBeLessThan(messages.length);
    expect(sent[0]).toBe(messages[0]);
    expect(sent[1]).toBe(messages[1]);
    expect(sent[sent.length - 1]).toBe(messages[messages.length - 1]);
    expect(sent.every((message) => messages.includes(message))).toBe(true);
    expect(attempt.promptTokens + 300).toBeLessThanOrEqual(1500);
    expect(attempt.ceiling).toBe(300);
  });

  test('the messages nearest the middle go first; the outer middle turns stay when room allows', () => {
    const attempt = firstAttempt(catalogue, chatRequest({ messages, maxTokens: 300, middleOut: true }));
    const sent = attempt.messages ?? [];
    const droppedIndexes = messages.map((message, index) => (sent.includes(message) ? -1 : index)).filter((index) => index >= 0);
    expect(droppedIndexes.length).toBeGreaterThan(0);
    expect(droppedIndexes.length).toBeLessThan(6);
    const centre = Math.floor(messages.length / 2);
    expect(droppedIndexes).toContain(centre);
  });

  test('a conversation that already fits is sent as it is', () => {
    const attempt = firstAttempt(catalogue, chatRequest({ maxTokens: 100, middleOut: true }));
    expect(attempt.messages).toBeUndefined();
  });
});
