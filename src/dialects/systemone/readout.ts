import type { TokenLogprob } from '../../core/events.js';
import type { QuestionOption } from './questions.js';

/**
 * Where a distribution came from: the log-probabilities of the answer's first token, or (where the
 * endpoint reported none, or none fell on a label) the label the model wrote, taken as certain.
 */
export type Basis = 'logprobs' | 'answer';

export interface Distribution {
  /** One probability per option, in option order, summing to 1. */
  probabilities: number[];
  basis: Basis;
}

export interface AnswerText {
  text: string;
  logprobs?: readonly TokenLogprob[];
}

/**
 * Reads the model's distribution over a question's options. The first non-blank answer token's
 * alternatives are matched to the labels (case and surrounding punctuation ignored), each label's
 * probability is the sum over its matching tokens, and the result is renormalised over the labels.
 * Undefined when the answer names no label at all: the question went unanswered.
 */
export function readDistribution(options: readonly QuestionOption[], answer: AnswerText): Distribution | undefined {
  const fromLogprobs = answer.logprobs ? logprobDistribution(options, answer.logprobs) : undefined;
  if (fromLogprobs) return { probabilities: fromLogprobs, basis: 'logprobs' };
  const written = optionIndex(options, firstWord(answer.text));
  if (written < 0) return undefined;
  return { probabilities: options.map((_, index) => (index === written ? 1 : 0)), basis: 'answer' };
}

function logprobDistribution(options: readonly QuestionOption[], tokens: readonly TokenLogprob[]): number[] | undefined {
  const first = tokens.find((token) => normalise(token.token) !== '');
  if (!first) return undefined;
  const alternatives = new Map<string, number>(first.top.map((alternative) => [alternative.token, alternative.logprob]));
  if (!alternatives.has(first.token)) alternatives.set(first.token, first.logprob);
  const mass = options.map(() => 0);
  for (const [token, logprob] of alternatives) {
    const index = optionIndex(options, token);
    if (index >= 0) mass[index] = (mass[index] ?? 0) + Math.exp(logprob);
  }
  const total = mass.reduce((sum, value) => sum + value, 0);
  return total > 0 ? mass.map((value) => value / total) : undefined;
}

function optionIndex(options: readonly QuestionOption[], token: string): number {
  const read = normalise(token);
  return read === '' ? -1 : options.findIndex((option) => option.label.toLowerCase() === read);
}

/** A token or word as compared with labels: trimmed, unquoted, without trailing punctuation, lower case. */
function normalise(token: string): string {
  return token.trim().replace(/^["'(*[]+|["'.):*\],;!]+$/g, '').toLowerCase();
}

function firstWord(text: string): string {
  return text.trim().split(/\s+/, 1)[0] ?? '';
}
