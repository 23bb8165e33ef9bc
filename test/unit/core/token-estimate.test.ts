import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import type { CoreMessage, CoreRequest, ToolDefinition } from '../../../src/core/request.js';
import { requestFacts } from '../../../src/core/request-facts.js';
import { countTextTokens } from '../../../src/core/text-tokens.js';
import { countText, estimatePromptTokens, MIN_TOKENS_PER_BYTE, TOKENIZED_BYTES } from '../../../src/core/token-estimate.js';
import { code, compactJson, prettyJson, prose, randomCjk, randomEmoji, randomSymbols, seeded } from '../../fixtures/text-samples.js';

const PLAIN = { disallowedSpecial: new Set<string>() };

const TOOLS: ToolDefinition[] = [{
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city, in metric units.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
}];

/** The estimate as it was made before work was bounded: every text tokenized whole, 3 tokens per message. */
function previousEstimate(messages: readonly CoreMessage[], tools?: readonly ToolDefinition[]): number {
  const text = (value: string | undefined): number => (value ? countTokens(value, PLAIN) : 0);
  const content = (message: CoreMessage): number => {
    if (typeof message.content === 'string') return text(message.content);
    return (message.content ?? []).reduce((sum, part) => sum + (part.type === 'text' ? text(part.text) : 85), 0);
  };
  const toolTokens = tools ? text(JSON.stringify(tools)) : 0;
  return messages.reduce((sum, message) => sum + 3 + text(message.name) + content(message), toolTokens);
}

function chatRequest(messages: CoreMessage[], tools?: ToolDefinition[]): CoreRequest {
  return {
    models: ['acme/chat'], messages, stream: false, parameters: {}, softParameters: {}, passthrough: {}, attribution: {},
    ...(tools && { tools }),
  };
}

function user(content: string): CoreMessage {
  return { role: 'user', content };
}

function ratio(estimate: number, exact: number): number {
  return estimate / exact;
}

describe('prompt estimates of normal requests', () => {
  it('a request of a few KB is estimated exactly as before: every text tokenized, 3 tokens per message, the tool schemas', () => {
    const messages: CoreMessage[] = [
      { role: 'system', content: prose().slice(0, 2500) },
      user(code().slice(0, 2500)),
      { role: 'assistant', content: [{ type: 'text', text: 'Here is what the planner does.' }] },
      user('And the executor?'),
    ];
    expect(estimatePromptTokens(messages, TOOLS)).toBe(previousEstimate(messages, TOOLS));
    const facts = requestFacts(chatRequest(messages, TOOLS));
    expect(facts.promptTokens).toBe(previousEstimate(messages, TOOLS));
    expect(facts.messageTokens).toEqual(messages.map((message) => previousEstimate([message])));
  });

  it.each([
    ['prose (the README and docs/, 150 KB)', prose],
    ['code (src/core, 100+ KB)', () => code()],
    ['pretty JSON (the lock file, 120 KB)', prettyJson],
    ['compact JSON (60 KB)', compactJson],
  ])('long %s is estimated within a few percent above the tokenizer count', (_name, text) => {
    const messages = [{ role: 'system', content: 'You are a careful reviewer.' } as const, user(text())];
    const exact = previousEstimate(messages, TOOLS);
    expect(ratio(estimatePromptTokens(messages, TOOLS), exact)).toBeGreaterThanOrEqual(0.98);
    expect(ratio(estimatePromptTokens(messages, TOOLS), exact)).toBeLessThanOrEqual(1.1);
  });

  it('a long conversation is estimated within a few percent above the tokenizer count', () => {
    const paragraphs = prose().split('\n\n');
    const messages = Array.from({ length: 200 }, (_, index): CoreMessage => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: paragraphs[index % paragraphs.length] ?? '',
    }));
    const exact = previousEstimate(messages);
    expect(ratio(estimatePromptTokens(messages), exact)).toBeGreaterThanOrEqual(0.98);
    expect(ratio(estimatePromptTokens(messages), exact)).toBeLessThanOrEqual(1.1);
  });

  it('a system prompt, then a long pasted file: the file is estimated at its own ratio, not the prose ratio', () => {
    // the prompt is counted whole, so the file is judged from what is left: smaller samples, a wider
    // spread (the corpora are this repository's README and docs/ pages and a copy of an earlier lock file; the ratio moves as they change)
    const messages = [{ role: 'system', content: prose().slice(0, 6000) } as const, user(prettyJson())];
    const exact = previousEstimate(messages);
    expect(ratio(estimatePromptTokens(messages), exact)).toBeGreaterThanOrEqual(0.96);
    expect(ratio(estimatePromptTokens(messages), exact)).toBeLessThanOrEqual(1.12);
  });

  it('special-token markers in the text are counted as text, not refused', () => {
    const text = 'Print <|endoftext|> then <|im_start|>';
    expect(estimatePromptTokens([user(text)])).toBe(3 + countTokens(text, PLAIN));
    expect(countText('')).toBe(0);
  });
});

describe('prompt estimates of bodies made to defeat the tokenizer (linear work, results asserted)', () => {
  const MEGABYTE = 1_048_576;

  it('a 1 MB run of one character: at least MIN_TOKENS_PER_BYTE per byte, above its real count', () => {
    const run = 'a'.repeat(MEGABYTE);
    const estimate = countText(run);
    expect(estimate).toBeGreaterThanOrEqual(MEGABYTE * MIN_TOKENS_PER_BYTE);
    expect(estimate).toBeGreaterThan(countTextTokens(run));
    expect(estimate).toBeLessThan(MEGABYTE * 0.25);
  });

  it('a 1 MB run of one character in each of 8 messages (the body limit): each one at least MIN_TOKENS_PER_BYTE per byte', () => {
    const messages = Array.from({ length: 8 }, () => user('x'.repeat(MEGABYTE - 64)));
    expect(estimatePromptTokens(messages)).toBeGreaterThanOrEqual(8 * ((MEGABYTE - 64) * MIN_TOKENS_PER_BYTE + 3));
  });

  it('1 MB of random symbols without spaces: within a few percent above the tokenizer count', () => {
    const text = randomSymbols(MEGABYTE, 7);
    const exact = countTokens(text);
    expect(ratio(countText(text), exact)).toBeGreaterThanOrEqual(0.98);
    expect(ratio(countText(text), exact)).toBeLessThanOrEqual(1.1);
  });

  it.each([
    ['one emoji repeated', () => '😀'.repeat(MEGABYTE / 4)],
    ['random emoji', () => randomEmoji(MEGABYTE / 4, 3)],
    ['one ideograph repeated', () => '字'.repeat(MEGABYTE / 3)],
    ['random CJK ideographs', () => randomCjk(MEGABYTE / 3, 5)],
  ])('1 MB of %s: within a few percent above the count of the linear tokenizer', (_name, make) => {
    const text = make();
    const exact = countTextTokens(text);
    expect(ratio(countText(text), exact)).toBeGreaterThanOrEqual(0.98);
    expect(ratio(countText(text), exact)).toBeLessThanOrEqual(1.1);
  });

  it('100,000 one-word messages: within a few percent above, every message costing its 3 tokens', () => {
    const next = seeded(11);
    const words = ['hello', 'yes', 'no', 'thanks', 'ok', 'why?', 'sure', 'again'];
    const messages = Array.from({ length: 100_000 }, () => user(words[Math.floor(next() * words.length)] ?? 'ok'));
    const exact = previousEstimate(messages);
    expect(ratio(estimatePromptTokens(messages), exact)).toBeGreaterThanOrEqual(0.98);
    expect(ratio(estimatePromptTokens(messages), exact)).toBeLessThanOrEqual(1.1);
  });

  it(`a request past ${TOKENIZED_BYTES} bytes of text is still estimated for every message`, () => {
    const paragraph = prose().slice(0, 500);
    const messages = Array.from({ length: 1000 }, () => user(paragraph));
    const facts = requestFacts(chatRequest(messages));
    expect(facts.messageTokens).toHaveLength(1000);
    expect(Math.min(...facts.messageTokens)).toBeGreaterThan(3);
    expect(ratio(facts.promptTokens, previousEstimate(messages))).toBeGreaterThanOrEqual(0.98);
  });
});
