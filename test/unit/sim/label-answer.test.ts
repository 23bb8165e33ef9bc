import { describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { labelDistribution, offeredLabels } from '../../../src/sim/label-answer.js';
import { useSimulator, userMessage } from './sim-session.js';

const sim = useSimulator();

type Completion = OpenAI.Chat.Completions.ChatCompletion;

const PROMPT = 'State:\nRefund me\n\nQuestion: How urgent?\nOptions:\nA: low\nB: high\nC: unclear\n\nAnswer with one of: A, B, C.';

describe('simulator labels behaviour', () => {
  it('reads the labels a prompt offers on its closing line, and none from other prompts', () => {
    expect(offeredLabels(PROMPT)).toEqual(['A', 'B', 'C']);
    expect(offeredLabels('Answer with one of: yes, no.')).toEqual(['yes', 'no']);
    expect(offeredLabels('Answer with one of: A, B.\nThen explain.')).toBeUndefined();
    expect(offeredLabels('hello')).toBeUndefined();
  });

  it('gives a distribution over every label that depends only on the prompt', () => {
    const spread = labelDistribution(['0', '1', '2', '3'], PROMPT);
    expect(spread.map((entry) => entry.token)).toEqual(['0', '1', '2', '3']);
    expect(spread.every((entry) => entry.probability > 0 && entry.probability <= 1)).toBe(true);
    expect(labelDistribution(['0', '1', '2', '3'], PROMPT)).toEqual(spread);
    const favoured = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((seed) => {
      const picks = labelDistribution(['A', 'B', 'C'], `${seed}\n${PROMPT}`);
      return picks.reduce((best, entry) => (entry.probability > best.probability ? entry : best)).token;
    }));
    expect(favoured.size).toBeGreaterThan(1);
  });

  it('answers a labelled prompt with its favoured label, top_logprobs spread over every label', async () => {
    const reply = await sim.json<Completion>({ model: 'chat;labels', messages: userMessage(PROMPT), logprobs: true, top_logprobs: 20 });
    const first = reply.choices[0]?.logprobs?.content?.[0];
    const expected = labelDistribution(['A', 'B', 'C'], PROMPT);
    const favoured = expected.reduce((best, entry) => (entry.probability > best.probability ? entry : best)).token;
    expect(reply.choices[0]?.message.content).toBe(favoured);
    expect(reply.usage?.completion_tokens).toBe(1);
    expect(new Set(first?.top_logprobs.map((entry) => entry.token))).toEqual(new Set(['A', 'B', 'C']));
  });

  it('leaves other prompts and scripted answers alone', async () => {
    const plain = await sim.json<Completion>({ model: 'chat;labels;tokens=3', messages: userMessage('hi') });
    expect(plain.usage?.completion_tokens).toBe(3);
    const scripted = await sim.json<Completion>({ model: 'chat;labels', messages: userMessage(`[[sim answer=zzz]]\n${PROMPT}`) });
    expect(scripted.choices[0]?.message.content).toBe('zzz');
  });
});
