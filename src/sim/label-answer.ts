import { createHash } from 'node:crypto';
import type { SimBehaviour } from './behaviour.js';

/** The closing line of a prompt that asks for one label: `Answer with one of: A, B, C.` */
const LABEL_LINE = /(?:^|\n)Answer with one of: ([^\n]+?)\.?\s*$/;

/** Weight of the label a prompt favours; every other label gets 1 to 4. */
const FAVOURED_WEIGHT = 12;

/**
 * The labels a prompt offers on its closing `Answer with one of: …` line; undefined when it ends
 * otherwise. Labels are single words separated by commas.
 */
export function offeredLabels(prompt: string): string[] | undefined {
  const line = LABEL_LINE.exec(prompt)?.[1];
  if (line === undefined) return undefined;
  const labels = line.split(',').map((label) => label.trim());
  return labels.length >= 2 && labels.every((label) => /^\S+$/.test(label)) ? labels : undefined;
}

/**
 * A distribution over the offered labels that depends only on the prompt: a digest of it picks the
 * favoured label and weighs the others, so the same prompt always gets the same answer and different
 * prompts get different ones. Probabilities are rounded to two decimals, each at least 0.01.
 */
export function labelDistribution(labels: readonly string[], prompt: string): { token: string; probability: number }[] {
  const digest = createHash('sha256').update(prompt).digest();
  const favoured = (digest[0] ?? 0) % labels.length;
  const weights = labels.map((_, index) => (index === favoured ? FAVOURED_WEIGHT : 1 + ((digest[index + 1] ?? 0) % 4)));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return labels.map((token, index) => ({ token, probability: Math.max(0.01, Math.round(((weights[index] ?? 0) / total) * 100) / 100) }));
}

/**
 * The `labels` behaviour: where the last user message ends by offering labels, the answer is the
 * label its digest favours, with `top` alternatives spread over every label. A scripted `answer` or
 * `top` wins; other prompts are answered as usual.
 */
export function withLabelAnswer(behaviour: SimBehaviour, prompt: string): SimBehaviour {
  if (!behaviour.labels || behaviour.answer !== undefined || behaviour.top !== undefined) return behaviour;
  const labels = offeredLabels(prompt);
  return labels ? { ...behaviour, top: labelDistribution(labels, prompt) } : behaviour;
}
