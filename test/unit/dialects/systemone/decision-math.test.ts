import { describe, expect, it } from 'vitest';
import { mostProbable, peakedness, typedAnswer } from '../../../../src/dialects/systemone/answers.js';
import { readQuestions, type Question } from '../../../../src/dialects/systemone/questions.js';
import { readDistribution } from '../../../../src/dialects/systemone/readout.js';
import type { TokenLogprob } from '../../../../src/core/events.js';

const [choice, score, noul] = readQuestions({
  pick: { type: 'choice', instructions: 'Pick', criteria: { red: 'warm', green: null, blue: 'cold' } },
  level: { type: 'score', instructions: 'Rate', criteria: ['low', 'mid', 'high'] },
  truth: { type: 'noul', instructions: 'True?' },
}) as [Question, Question, Question];

function token(text: string, probability: number, top: [string, number][] = []): TokenLogprob {
  return { token: text, logprob: Math.log(probability), top: top.map(([alternative, p]) => ({ token: alternative, logprob: Math.log(p) })) };
}

describe('option labels', () => {
  it('choice options are lettered in order, score levels numbered from 0, noul answered yes/no', () => {
    expect(choice.options.map((option) => [option.name, option.label, option.description])).toEqual([
      ['red', 'A', 'warm'], ['green', 'B', null], ['blue', 'C', 'cold'],
    ]);
    expect(score.options.map((option) => option.label)).toEqual(['0', '1', '2']);
    expect(noul.options.map((option) => [option.name, option.label])).toEqual([['true', 'yes'], ['false', 'no']]);
  });
});

describe('readDistribution', () => {
  it('renormalises the first token alternatives over the labels, ignoring other tokens', () => {
    const read = readDistribution(choice.options, { text: 'B', logprobs: [token('B', 0.5, [['B', 0.5], ['A', 0.2], ['The', 0.2], ['C', 0.1]])] });
    expect(read?.basis).toBe('logprobs');
    expect(read?.probabilities.map((p) => Number(p.toFixed(9)))).toEqual([0.25, 0.625, 0.125]);
  });

  it('sums tokens that spell the same label (case, spaces, punctuation) and skips a blank first token', () => {
    const read = readDistribution(choice.options, {
      text: '\nA',
      logprobs: [token('\n', 0.9), token(' A', 0.3, [[' A', 0.3], ['a', 0.1], ['A.', 0.2], ['C', 0.4]])],
    });
    expect(read?.probabilities.map((p) => Number(p.toFixed(9)))).toEqual([0.6, 0, 0.4]);
  });

  it('counts the generated token when the endpoint listed no alternatives', () => {
    const read = readDistribution(noul.options, { text: 'yes', logprobs: [token('yes', 0.7)] });
    expect(read).toEqual({ probabilities: [1, 0], basis: 'logprobs' });
  });

  it('falls back to the written label as certain without log-probabilities, or when none names a label', () => {
    expect(readDistribution(choice.options, { text: ' c) because' })).toEqual({ probabilities: [0, 0, 1], basis: 'answer' });
    expect(readDistribution(score.options, { text: '2', logprobs: [token('Two', 0.9, [['Two', 0.9]])] })).toEqual({ probabilities: [0, 0, 1], basis: 'answer' });
    expect(readDistribution(score.options, { text: '1', logprobs: [token('one', 0.9, [['one', 0.9]])] })).toEqual({ probabilities: [0, 1, 0], basis: 'answer' });
  });

  it('is undefined when the answer names no option at all', () => {
    expect(readDistribution(choice.options, { text: 'purple' })).toBeUndefined();
    expect(readDistribution(choice.options, { text: '' })).toBeUndefined();
  });
});

describe('peakedness (confidence)', () => {
  it('is 0 for a uniform distribution, 1 for a certain one, between otherwise', () => {
    expect(peakedness([1 / 3, 1 / 3, 1 / 3])).toBeCloseTo(0, 12);
    expect(peakedness([0, 1, 0])).toBe(1);
    expect(peakedness([0.5, 0.5])).toBeCloseTo(0, 12);
    const mixed = peakedness([0.9, 0.1]);
    expect(mixed).toBeGreaterThan(0);
    expect(mixed).toBeLessThan(1);
  });

  it('mostProbable takes the first of equal maxima', () => {
    expect(mostProbable([0.4, 0.4, 0.2])).toBe(0);
    expect(mostProbable([0.1, 0.2, 0.7])).toBe(2);
  });
});

describe('typedAnswer shapes', () => {
  it('choice: the most probable option with probabilities by option name', () => {
    expect(typedAnswer(choice, { probabilities: [0.1, 0.2, 0.7], basis: 'logprobs' })).toEqual({
      type: 'choice', choice: 'blue', probabilities: { red: 0.1, green: 0.2, blue: 0.7 }, confidence: peakedness([0.1, 0.2, 0.7]), basis: 'logprobs',
    });
  });

  it('score: the expected level index, the legend and probabilities keyed by level', () => {
    const answer = typedAnswer(score, { probabilities: [0.2, 0.3, 0.5], basis: 'logprobs' });
    expect(answer.score).toBeCloseTo(0.3 + 1.0, 12);
    expect(answer.legend).toEqual({ 0: 'low', 1: 'mid', 2: 'high' });
    expect(answer.probabilities).toEqual({ 0: 0.2, 1: 0.3, 2: 0.5 });
  });

  it('noul: the probability of true', () => {
    const answer = typedAnswer(noul, { probabilities: [0.85, 0.15], basis: 'logprobs' });
    expect(answer.type).toBe('noul');
    expect(answer.noul).toBe(0.85);
    expect(answer.confidence).toBeCloseTo(peakedness([0.85, 0.15]), 12);
  });
});
