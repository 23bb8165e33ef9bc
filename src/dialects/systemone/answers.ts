import type { Question } from './questions.js';
import type { Distribution } from './readout.js';

/**
 * How peaked a distribution is, from 0 (every option equally likely) to 1 (one option holds all
 * the probability): one minus its entropy divided by the entropy of the uniform distribution.
 */
export function peakedness(probabilities: readonly number[]): number {
  if (probabilities.length < 2) return 1;
  const entropy = probabilities.reduce((sum, p) => (p > 0 ? sum - p * Math.log(p) : sum), 0);
  return clampUnit(1 - entropy / Math.log(probabilities.length));
}

/** The position of the largest probability; the first one on a tie. */
export function mostProbable(probabilities: readonly number[]): number {
  return probabilities.reduce((best, p, index) => (p > (probabilities[best] ?? -1) ? index : best), 0);
}

/**
 * The typed answer of one question:
 * - choice: `{type, choice, probabilities{option: p}, confidence, basis}`, `choice` the most probable option
 * - score: `{type, score, legend{level: description}, probabilities{level: p}, confidence, basis}`,
 *   `score` the expected level (levels numbered from 0, lowest first), between two levels when unsure
 * - noul: `{type, noul, confidence, basis}`, `noul` the probability that the statement is true
 * `confidence` is the distribution's peakedness.
 */
export function typedAnswer(question: Question, distribution: Distribution): Record<string, unknown> {
  const { probabilities, basis } = distribution;
  const byName = (values: readonly (number | string | null)[]) =>
    Object.fromEntries(question.options.map((option, index) => [option.name, values[index] ?? null]));
  const confidence = peakedness(probabilities);
  switch (question.type) {
    case 'choice': {
      const choice = question.options[mostProbable(probabilities)]?.name ?? null;
      return { type: 'choice', choice, probabilities: byName(probabilities), confidence, basis };
    }
    case 'score': {
      const score = probabilities.reduce((sum, p, level) => sum + p * level, 0);
      const legend = byName(question.options.map((option) => option.description));
      return { type: 'score', score, legend, probabilities: byName(probabilities), confidence, basis };
    }
    case 'noul':
      return { type: 'noul', noul: clampUnit(probabilities[0] ?? 0), confidence, basis };
  }
}

function clampUnit(value: number): number {
  return Math.min(1, Math.max(0, value));
}
